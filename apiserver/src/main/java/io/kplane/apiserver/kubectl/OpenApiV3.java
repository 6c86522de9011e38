package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code /openapi/v3} discovery document and one document per group version
 * ({@code /openapi/v3/apis/batch/v1}). kubectl reads them to decide that the server validates fields
 * itself (a {@code patch} operation carrying the kind's {@code x-kubernetes-group-version-kind} and a
 * {@code fieldValidation} parameter, so it sends {@code fieldValidation=Strict}) and for
 * {@code kubectl explain}. Patch operations deliberately declare no request body: kubectl then
 * computes client-side-apply patches from its compiled-in types, which know every list merge key.
 * Documents are built once, on first use; they only depend on the served types.
 */
public final class OpenApiV3 {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SERVER_VERSION = "v1.32.0-kplane";

    private final List<ResourceType> types;
    /** Built on first use ({@link #build()}), then never changed. */
    private volatile Documents documents;

    /** The documents of {@code types}, built on first use: construction is free. */
    public OpenApiV3(List<ResourceType> types) {
        this.types = List.copyOf(types);
    }

    public OpenApiV3() {
        this(ResourceTypes.ALL);
    }

    /** The body of {@code GET /openapi/v3}. */
    public byte[] root() {
        return build().root();
    }

    /** The body of {@code GET /openapi/v3/<groupPath>} ({@code api/v1}, {@code apis/batch/v1}), if served. */
    public Optional<byte[]> group(String groupPath) {
        String key = groupPath.startsWith("/") ? groupPath.substring(1) : groupPath;
        return Optional.ofNullable(build().groups().get(key));
    }

    /** True once the documents exist: {@link #root()} and {@link #group} then only look them up. */
    public boolean built() {
        return documents != null;
    }

    /**
     * Builds the documents unless they exist (once; callers at the same moment wait for the one build).
     * Not done at construction: it introspects every API record with Jackson and writes and hashes one
     * document per group version (63 of the event loops' ~85 samples between store open and serving when
     * each event loop's router built its own), and only kubectl asks for them, most API servers never.
     */
    public Documents build() {
        Documents built = documents;
        if (built == null) {
            synchronized (this) {
                built = documents;
                if (built == null) {
                    built = documents = Documents.of(types);
                }
            }
        }
        return built;
    }

    /** The root document and the group documents by group path, as served. */
    public record Documents(byte[] root, Map<String, byte[]> groups) {
        static Documents of(List<ResourceType> types) {
            Map<String, List<ResourceType>> byGroupVersion = new LinkedHashMap<>();
            for (ResourceType t : types) {
                byGroupVersion
                        .computeIfAbsent(groupPath(t), k -> new java.util.ArrayList<>())
                        .add(t);
            }
            Map<String, byte[]> groups = new LinkedHashMap<>();
            ObjectNode rootDoc = NODES.objectNode();
            ObjectNode rootPaths = rootDoc.putObject("paths");
            for (Map.Entry<String, List<ResourceType>> e : byGroupVersion.entrySet()) {
                byte[] doc = Json.writeBytes(groupDocument(e.getValue()));
                groups.put(e.getKey(), doc);
                rootPaths
                        .putObject(e.getKey())
                        .put("serverRelativeURL", "/openapi/v3/" + e.getKey() + "?hash=" + hash(doc));
            }
            return new Documents(Json.writeBytes(rootDoc), java.util.Collections.unmodifiableMap(groups));
        }
    }

    private static String groupPath(ResourceType t) {
        return t.groupVersionPath().substring(1);
    }

    private static ObjectNode groupDocument(List<ResourceType> types) {
        ObjectNode doc = NODES.objectNode();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", SERVER_VERSION);
        ObjectNode paths = doc.putObject("paths");
        SchemaGenerator schemas = new SchemaGenerator(Json.mapper());
        for (ResourceType t : types) {
            String kindSchema = schemas.define(t.javaType());
            String prefix = t.groupVersionPath() + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.resource();
            ObjectNode collection = paths.putObject(prefix);
            collection.set("get", operation(t, "list", kindSchema, false));
            collection.set("post", operation(t, "post", kindSchema, true));
            collection.set("delete", operation(t, "deletecollection", kindSchema, false));
            collection.set("parameters", pathParameters(t.namespaced(), false));
            ObjectNode item = paths.putObject(prefix + "/{name}");
            item.set("get", operation(t, "get", kindSchema, false));
            item.set("put", operation(t, "put", kindSchema, true));
            item.set("patch", operation(t, "patch", kindSchema, true));
            item.set("delete", operation(t, "delete", kindSchema, false));
            item.set("parameters", pathParameters(t.namespaced(), true));
            if (t.hasSubresource("status")) {
                ObjectNode status = paths.putObject(prefix + "/{name}/status");
                status.set("get", operation(t, "get", kindSchema, false));
                status.set("put", operation(t, "put", kindSchema, true));
                status.set("patch", operation(t, "patch", kindSchema, true));
                status.set("parameters", pathParameters(t.namespaced(), true));
            }
            if (t.namespaced()) {
                ObjectNode all = paths.putObject(t.groupVersionPath() + "/" + t.resource());
                all.set("get", operation(t, "list", kindSchema, false));
            }
        }
        ObjectNode components = doc.putObject("components").putObject("schemas");
        schemas.schemas().forEach(components::set);
        for (ResourceType t : types) {
            ObjectNode kind = (ObjectNode) components.get(SchemaGenerator.schemaName(t.javaType()));
            kind.putArray("x-kubernetes-group-version-kind")
                    .addObject()
                    .put("group", t.group())
                    .put("kind", t.kind())
                    .put("version", t.version());
        }
        return doc;
    }

    private static ObjectNode operation(ResourceType t, String action, String kindSchema, boolean write) {
        ObjectNode op = NODES.objectNode();
        String verb =
                switch (action) {
                    case "list" -> "list";
                    case "post" -> "create";
                    case "put" -> "replace";
                    case "deletecollection" -> "deleteCollection";
                    default -> action;
                };
        op.put("operationId", verb + (t.namespaced() ? "Namespaced" : "") + t.kind());
        op.putArray("tags")
                .add(t.isCoreGroup() ? "core_" + t.version() : t.group().replace('.', '_') + "_" + t.version());
        op.put("x-kubernetes-action", action);
        op.putObject("x-kubernetes-group-version-kind")
                .put("group", t.group())
                .put("version", t.version())
                .put("kind", t.kind());
        ArrayNode params = op.putArray("parameters");
        if (write) {
            query(params, "dryRun", "When present, indicates that modifications should not be persisted.");
            query(
                    params,
                    "fieldManager",
                    "fieldManager is a name associated with the actor or entity that is " + "making these changes.");
            query(
                    params,
                    "fieldValidation",
                    "fieldValidation instructs the server on how to handle objects in the "
                            + "request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: Ignore, Warn, "
                            + "Strict.");
            if (action.equals("patch")) {
                params.addObject()
                        .put("name", "force")
                        .put("in", "query")
                        .putObject("schema")
                        .put("type", "boolean")
                        .put("uniqueItems", true);
            }
        }
        ObjectNode content = op.putObject("responses")
                .putObject("200")
                .put("description", "OK")
                .putObject("content")
                .putObject("application/json")
                .putObject("schema");
        content.put("$ref", "#/components/schemas/" + kindSchema);
        return op;
    }

    private static void query(ArrayNode params, String name, String description) {
        ObjectNode p = params.addObject();
        p.put("name", name).put("in", "query").put("description", description);
        p.putObject("schema").put("type", "string").put("uniqueItems", true);
    }

    private static ArrayNode pathParameters(boolean namespaced, boolean named) {
        ArrayNode params = NODES.arrayNode();
        if (named) {
            pathParameter(params, "name");
        }
        if (namespaced) {
            pathParameter(params, "namespace");
        }
        return params;
    }

    private static void pathParameter(ArrayNode params, String name) {
        ObjectNode p = params.addObject();
        p.put("name", name)
                .put("in", "path")
                .put("required", true)
                .put("description", name + " of the " + (name.equals("namespace") ? "namespace" : "object"));
        p.putObject("schema").put("type", "string").put("uniqueItems", true);
    }

    private static String hash(byte[] doc) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(doc);
            return HexFormat.of().formatHex(digest, 0, 64).toUpperCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** For tests and logs: the group document as a tree. */
    public JsonNode groupTree(String groupPath) {
        return group(groupPath)
                .map(b -> {
                    try {
                        return Json.mapper().readTree(b);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .orElse(NODES.missingNode());
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
