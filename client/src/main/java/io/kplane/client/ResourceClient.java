package io.kplane.client;

import com.fasterxml.jackson.databind.JavaType;
import io.kplane.api.ResourceType;
import io.kplane.api.core.Binding;
import io.kplane.api.core.ObjectReference;
import io.kplane.api.json.Json;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.KubeList;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.patch.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed REST operations on one resource ({@code pods}, {@code jobs}, ...), optionally bound to a namespace
 * with {@link #inNamespace(String)}. Without a namespace, list/watch/deleteCollection span all namespaces and
 * single-object calls use the object's own namespace (or fail for a namespaced resource given only a name).
 * Immutable and thread-safe.
 */
public final class ResourceClient<T extends KubeObject> {
    private static final String JSON = "application/json";

    private final RawClient raw;
    private final ResourceType type;
    private final Class<T> javaType;
    private final JavaType listType;
    private final String namespace;

    ResourceClient(RawClient raw, ResourceType type, Class<T> javaType, String namespace) {
        if (!type.javaType().isAssignableFrom(javaType) && !javaType.isAssignableFrom(type.javaType())) {
            throw new IllegalArgumentException(type.resource() + " decode to "
                    + type.javaType().getSimpleName() + ", not " + javaType.getSimpleName());
        }
        this.raw = raw;
        this.type = type;
        this.javaType = javaType;
        this.listType = Json.mapper().getTypeFactory().constructParametricType(KubeList.class, javaType);
        this.namespace = namespace == null || namespace.isEmpty() ? null : namespace;
    }

    /** The same client scoped to namespace {@code ns} ({@code null} for all namespaces). */
    public ResourceClient<T> inNamespace(String ns) {
        if (ns != null && !type.namespaced()) {
            throw new IllegalArgumentException(type.resource() + " are cluster-scoped");
        }
        return new ResourceClient<>(raw, type, javaType, ns);
    }

    /** The same client for all namespaces. */
    public ResourceClient<T> inAnyNamespace() {
        return new ResourceClient<>(raw, type, javaType, null);
    }

    public String namespace() {
        return namespace;
    }

    public ResourceType type() {
        return type;
    }

    public Class<T> javaType() {
        return javaType;
    }

    // ---- reads ----

    /** @throws ApiException with code 404 if there is no such object */
    public T get(String name) {
        return decode(raw.request("GET", objectPath(namespace, name), null, null, null, JSON)
                .body());
    }

    /** Like {@link #get} but empty instead of a 404. */
    public Optional<T> find(String name) {
        try {
            return Optional.of(get(name));
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    public KubeList<T> list(ListOptions options) {
        byte[] body = raw.request("GET", collectionPath(namespace), options.toQuery(), null, null, JSON)
                .body();
        try {
            return ClientJson.DECODER.readValue(body, listType);
        } catch (IOException e) {
            throw new KubeClientException("cannot decode " + type.listKind() + ": " + e.getMessage(), e);
        }
    }

    public List<T> list() {
        KubeList<T> list = list(ListOptions.none());
        return list.items() == null ? List.of() : list.items();
    }

    /** Every object matching {@code options}, fetched in pages of {@code pageSize}. */
    public List<T> listAll(ListOptions options, long pageSize) {
        List<T> all = new ArrayList<>();
        String token = null;
        do {
            KubeList<T> page = list(options.withLimit(pageSize).withContinueToken(token));
            if (page.items() != null) {
                all.addAll(page.items());
            }
            token = page.metadata() == null ? null : page.metadata()._continue();
        } while (token != null && !token.isEmpty());
        return all;
    }

    /**
     * Opens a watch. The stream delivers events until the server ends it ({@code timeoutSeconds}) or it is
     * closed; an expired resourceVersion surfaces as {@link ApiException} 410 from the request or from
     * {@link WatchStream#next()}.
     */
    public WatchStream<T> watch(ListOptions options) {
        Map<String, String> query = new LinkedHashMap<>(options.toQuery());
        query.put("watch", "true");
        String path = collectionPath(namespace);
        InputStream body = raw.stream(path, query, JSON);
        return new HttpWatchStream<>(body, javaType, raw.uri(path, query).toString());
    }

    // ---- writes ----

    /** Creates {@code obj} in its own namespace, or in this client's namespace if it has none. */
    public T create(T obj) {
        String ns = namespaceOf(obj);
        T body = withNamespace(obj, ns);
        return decode(raw.request("POST", collectionPath(ns), null, Json.writeBytes(body), JSON, JSON)
                .body());
    }

    /** Replaces {@code obj}; with a resourceVersion set this fails with 409 Conflict if someone else wrote first. */
    public T update(T obj) {
        return decode(
                raw.request("PUT", objectPath(namespaceOf(obj), obj.name()), null, Json.writeBytes(obj), JSON, JSON)
                        .body());
    }

    /** Replaces the {@code status} subresource of {@code obj}. */
    public T updateStatus(T obj) {
        return decode(raw.request(
                        "PUT",
                        objectPath(namespaceOf(obj), obj.name()) + "/status",
                        null,
                        Json.writeBytes(obj),
                        JSON,
                        JSON)
                .body());
    }

    public T patch(String name, PatchType patchType, String patch) {
        return patch(name, patchType, patch, null);
    }

    public T patchStatus(String name, PatchType patchType, String patch) {
        return patch(name, patchType, patch, "status");
    }

    private T patch(String name, PatchType patchType, String patch, String subresource) {
        if (patchType == PatchType.APPLY) {
            throw new IllegalArgumentException("use apply(...) for server-side apply: it needs a field manager");
        }
        String path = objectPath(namespace, name) + (subresource == null ? "" : "/" + subresource);
        return decode(
                raw.request("PATCH", path, null, patch.getBytes(StandardCharsets.UTF_8), patchType.contentType(), JSON)
                        .body());
    }

    /** Server-side apply of {@code obj} (JSON is valid YAML) as {@code fieldManager}. */
    public T apply(T obj, String fieldManager, boolean force) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("fieldManager", fieldManager);
        if (force) {
            query.put("force", "true");
        }
        String ns = namespaceOf(obj);
        return decode(raw.request(
                        "PATCH",
                        objectPath(ns, obj.name()),
                        query,
                        Json.writeBytes(withNamespace(obj, ns)),
                        PatchType.APPLY.contentType(),
                        JSON)
                .body());
    }

    /**
     * Deletes {@code name}. Returns the object if it still exists afterwards (it has finalizers or a grace
     * period, and now carries a deletionTimestamp), empty if it is gone.
     *
     * @throws ApiException 404 if there is no such object
     */
    public Optional<T> delete(String name, DeleteOptions options) {
        byte[] body = options == null ? null : Json.writeBytes(withKind(options));
        RawResponse response =
                raw.request("DELETE", objectPath(namespace, name), null, body, body == null ? null : JSON, JSON);
        return decodeUnlessStatus(response.body());
    }

    public Optional<T> delete(String name) {
        return delete(name, null);
    }

    /** Deletes every object matching {@code options} in this client's namespace (or all). */
    public void deleteCollection(ListOptions options, DeleteOptions deleteOptions) {
        byte[] body = deleteOptions == null ? null : Json.writeBytes(withKind(deleteOptions));
        raw.request("DELETE", collectionPath(namespace), options.toQuery(), body, body == null ? null : JSON, JSON);
    }

    /** POST {@code pods/{pod}/binding}: assigns the pod to {@code nodeName} (what a scheduler does). */
    public void bind(String podName, String nodeName) {
        if (!"pods".equals(type.resource()) || !type.isCoreGroup()) {
            throw new UnsupportedOperationException("bind is only for pods, not " + type.resource());
        }
        String ns = requireNamespace();
        Binding binding = new Binding(
                null,
                null,
                ObjectMeta.named(ns, podName),
                new ObjectReference("Node", null, nodeName, null, "v1", null, null));
        raw.request("POST", objectPath(ns, podName) + "/binding", null, Json.writeBytes(binding), JSON, JSON);
    }

    /**
     * Opens a streaming GET on a subresource, e.g. {@code stream("mypod", "log", Map.of("follow", "true"))}.
     * The caller must close the stream.
     */
    public InputStream stream(String name, String subresource, Map<String, String> query) {
        return raw.stream(objectPath(namespace, name) + "/" + subresource, query, "*/*");
    }

    /** GETs a subresource and returns its body as text (e.g. a finished pod's log). */
    public String getSubresourceText(String name, String subresource, Map<String, String> query) {
        return raw.request("GET", objectPath(namespace, name) + "/" + subresource, query, null, null, "*/*")
                .bodyText();
    }

    // ---- paths ----

    /** {@code /api/v1/namespaces/ns/pods} or, without a namespace, {@code /api/v1/pods}. */
    public String collectionPath(String ns) {
        String gv = type.groupVersionPath();
        if (type.namespaced() && ns != null) {
            return gv + "/namespaces/" + ns + "/" + type.resource();
        }
        return gv + "/" + type.resource();
    }

    public String objectPath(String ns, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a " + type.singular() + " name is required");
        }
        if (type.namespaced() && ns == null) {
            throw new IllegalStateException(type.resource() + " are namespaced: call inNamespace(ns) first");
        }
        return collectionPath(type.namespaced() ? ns : null) + "/" + name;
    }

    private String namespaceOf(T obj) {
        if (!type.namespaced()) {
            return null;
        }
        String ns = obj.namespace();
        if (ns != null && !ns.isEmpty()) {
            if (namespace != null && !namespace.equals(ns)) {
                throw new IllegalArgumentException(
                        "object namespace " + ns + " does not match client namespace " + namespace);
            }
            return ns;
        }
        return requireNamespace();
    }

    private String requireNamespace() {
        if (namespace == null) {
            throw new IllegalStateException(type.resource() + " are namespaced: call inNamespace(ns) first");
        }
        return namespace;
    }

    @SuppressWarnings("unchecked")
    private T withNamespace(T obj, String ns) {
        if (ns == null || ns.equals(obj.namespace())) {
            return obj;
        }
        ObjectMeta meta = obj.metadata() == null
                ? ObjectMeta.named(ns, null)
                : obj.metadata().withNamespace(ns);
        return (T) obj.withMetadata(meta);
    }

    private static DeleteOptions withKind(DeleteOptions o) {
        if (o.kind() != null) {
            return o;
        }
        return new DeleteOptions(
                "v1",
                "DeleteOptions",
                o.gracePeriodSeconds(),
                o.preconditions(),
                o.propagationPolicy(),
                o.orphanDependents(),
                o.dryRun());
    }

    private T decode(byte[] body) {
        try {
            return ClientJson.DECODER.readValue(body, javaType);
        } catch (IOException e) {
            throw new KubeClientException("cannot decode " + type.kind() + ": " + e.getMessage(), e);
        }
    }

    private Optional<T> decodeUnlessStatus(byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        try {
            var tree = Json.mapper().readTree(body);
            if (tree == null || "Status".equals(tree.path("kind").asText())) {
                return Optional.empty();
            }
            return Optional.of(ClientJson.DECODER.treeToValue(tree, javaType));
        } catch (IOException e) {
            throw new KubeClientException("cannot decode delete response: " + e.getMessage(), e);
        }
    }
}
