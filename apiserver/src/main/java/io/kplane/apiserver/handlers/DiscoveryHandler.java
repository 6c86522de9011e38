package io.kplane.apiserver.handlers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.apiserver.codec.MediaType;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /version} and API discovery: the legacy documents ({@code APIVersions}, {@code APIGroupList},
 * {@code APIGroup}, {@code APIResourceList}) and, when the Accept header asks for it, the aggregated
 * {@code APIGroupDiscoveryList} with its exact Content-Type (kubectl ignores an aggregated body
 * served as plain JSON).
 */
public final class DiscoveryHandler {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Every stored resource, then the read-only services kubectl cluster-info looks up (served empty). */
    private static final List<ResourceType> DISCOVERED = java.util.stream.Stream.concat(
                    ResourceTypes.ALL.stream(),
                    java.util.stream.Stream.of(io.kplane.apiserver.kubectl.ServiceLookups.SERVICES))
            .toList();

    private static final String AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=%s;as=APIGroupDiscoveryList";

    public void version(RoutingContext ctx) {
        ObjectNode v = F.objectNode();
        v.put("major", "1");
        v.put("minor", "32");
        v.put("gitVersion", "v1.32.0-kplane");
        v.put("gitCommit", "0000000000000000000000000000000000000000");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2026-01-01T00:00:00Z");
        v.put("goVersion", "java" + Runtime.version().feature());
        v.put("compiler", "javac");
        v.put("platform", System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + System.getProperty("os.arch"));
        Responses.json(ctx, 200, v);
    }

    /** {@code /api}. */
    public void core(RoutingContext ctx) {
        String aggregated = aggregatedVersion(ctx.request().getHeader("Accept"));
        if (aggregated != null) {
            respondAggregated(ctx, aggregated, List.of(groupItem("", List.of("v1"))));
            return;
        }
        ObjectNode doc = F.objectNode();
        doc.put("kind", "APIVersions");
        doc.putArray("versions").add("v1");
        ObjectNode cidr = doc.putArray("serverAddressByClientCIDRs").addObject();
        cidr.put("clientCIDR", "0.0.0.0/0");
        cidr.put(
                "serverAddress",
                ctx.request().localAddress() == null
                        ? ""
                        : ctx.request().localAddress().toString());
        Responses.json(ctx, 200, doc);
    }

    /** {@code /apis}. */
    public void groups(RoutingContext ctx) {
        Map<String, List<String>> groups = namedGroups();
        String aggregated = aggregatedVersion(ctx.request().getHeader("Accept"));
        if (aggregated != null) {
            List<ObjectNode> items = new ArrayList<>();
            groups.forEach((g, versions) -> items.add(groupItem(g, versions)));
            respondAggregated(ctx, aggregated, items);
            return;
        }
        ObjectNode doc = F.objectNode();
        doc.put("kind", "APIGroupList");
        doc.put("apiVersion", "v1");
        ArrayNode arr = doc.putArray("groups");
        groups.forEach((g, versions) -> arr.add(legacyGroup(g, versions)));
        Responses.json(ctx, 200, doc);
    }

    /** {@code /apis/{group}}. */
    public void group(RoutingContext ctx) {
        String group = ctx.pathParam("group");
        List<String> versions = namedGroups().get(group);
        if (versions == null) {
            throw ApiError.pathNotFound();
        }
        Responses.json(ctx, 200, legacyGroup(group, versions));
    }

    /** {@code /api/v1} and {@code /apis/{group}/{version}}. */
    public void resourceList(RoutingContext ctx, String group, String version) {
        List<ResourceType> types = DISCOVERED.stream()
                .filter(t -> t.group().equals(group) && t.version().equals(version))
                .toList();
        if (types.isEmpty()) {
            throw ApiError.pathNotFound();
        }
        ObjectNode doc = F.objectNode();
        doc.put("kind", "APIResourceList");
        doc.put("apiVersion", "v1");
        doc.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = doc.putArray("resources");
        for (ResourceType t : types) {
            ObjectNode r = resources.addObject();
            r.put("name", t.resource());
            r.put("singularName", t.singular());
            r.put("namespaced", t.namespaced());
            r.put("kind", t.kind());
            strings(r.putArray("verbs"), t.verbs());
            if (!t.shortNames().isEmpty()) {
                strings(r.putArray("shortNames"), t.shortNames());
            }
            if (!t.categories().isEmpty()) {
                strings(r.putArray("categories"), t.categories());
            }
            for (String sub : t.subresources()) {
                ObjectNode s = resources.addObject();
                s.put("name", t.resource() + "/" + sub);
                s.put("singularName", "");
                s.put("namespaced", t.namespaced());
                s.put("kind", subresourceKind(t, sub));
                strings(s.putArray("verbs"), subresourceVerbs(sub));
            }
        }
        Responses.json(ctx, 200, doc);
    }

    private static Map<String, List<String>> namedGroups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ResourceType t : DISCOVERED) {
            if (!t.group().isEmpty()) {
                List<String> versions = groups.computeIfAbsent(t.group(), g -> new ArrayList<>());
                if (!versions.contains(t.version())) {
                    versions.add(t.version());
                }
            }
        }
        return groups;
    }

    private static ObjectNode legacyGroup(String group, List<String> versions) {
        ObjectNode g = F.objectNode();
        g.put("kind", "APIGroup");
        g.put("apiVersion", "v1");
        g.put("name", group);
        ArrayNode vs = g.putArray("versions");
        for (String v : versions) {
            ObjectNode gv = vs.addObject();
            gv.put("groupVersion", group + "/" + v);
            gv.put("version", v);
        }
        ObjectNode preferred = g.putObject("preferredVersion");
        preferred.put("groupVersion", group + "/" + versions.get(0));
        preferred.put("version", versions.get(0));
        return g;
    }

    private static ObjectNode groupItem(String group, List<String> versions) {
        ObjectNode item = F.objectNode();
        ObjectNode meta = item.putObject("metadata");
        meta.put("name", group);
        meta.putNull("creationTimestamp");
        ArrayNode vs = item.putArray("versions");
        for (String v : versions) {
            ObjectNode version = vs.addObject();
            version.put("version", v);
            version.put("freshness", "Current");
            ArrayNode resources = version.putArray("resources");
            for (ResourceType t : DISCOVERED) {
                if (!t.group().equals(group) || !t.version().equals(v)) {
                    continue;
                }
                ObjectNode r = resources.addObject();
                r.put("resource", t.resource());
                r.set("responseKind", kind(t.group(), t.version(), t.kind()));
                r.put("scope", t.namespaced() ? "Namespaced" : "Cluster");
                r.put("singularResource", t.singular());
                strings(r.putArray("verbs"), t.verbs());
                if (!t.shortNames().isEmpty()) {
                    strings(r.putArray("shortNames"), t.shortNames());
                }
                if (!t.categories().isEmpty()) {
                    strings(r.putArray("categories"), t.categories());
                }
                if (!t.subresources().isEmpty()) {
                    ArrayNode subs = r.putArray("subresources");
                    for (String sub : t.subresources()) {
                        ObjectNode s = subs.addObject();
                        s.put("subresource", sub);
                        s.set(
                                "responseKind",
                                kind(sub.equals("binding") ? "" : t.group(), t.version(), subresourceKind(t, sub)));
                        strings(s.putArray("verbs"), subresourceVerbs(sub));
                    }
                }
            }
        }
        return item;
    }

    private static ObjectNode kind(String group, String version, String kind) {
        ObjectNode k = F.objectNode();
        k.put("group", group);
        k.put("version", version);
        k.put("kind", kind);
        return k;
    }

    private static String subresourceKind(ResourceType t, String sub) {
        return switch (sub) {
            case "binding" -> "Binding";
            case "exec" -> "PodExecOptions";
            case "attach" -> "PodAttachOptions";
            case "portforward" -> "PodPortForwardOptions";
            default -> t.kind();
        };
    }

    private static List<String> subresourceVerbs(String sub) {
        return switch (sub) {
            case "log" -> List.of("get");
            case "binding" -> List.of("create");
            case "finalize" -> List.of("update");
            case "exec", "attach", "portforward" -> List.of("create", "get");
            default -> List.of("get", "patch", "update");
        };
    }

    private static void strings(ArrayNode arr, List<String> values) {
        values.forEach(arr::add);
    }

    private static void respondAggregated(RoutingContext ctx, String discoveryVersion, List<ObjectNode> items) {
        ObjectNode doc = F.objectNode();
        doc.put("kind", "APIGroupDiscoveryList");
        doc.put("apiVersion", "apidiscovery.k8s.io/" + discoveryVersion);
        doc.putObject("metadata");
        ArrayNode arr = doc.putArray("items");
        items.forEach(arr::add);
        Responses.json(ctx, 200, doc, String.format(AGGREGATED, discoveryVersion), List.of());
    }

    /** "v2" or "v2beta1" if the first acceptable alternative is an aggregated discovery document, else null. */
    static String aggregatedVersion(String accept) {
        for (MediaType m : MediaType.parseAccept(accept)) {
            if ("APIGroupDiscoveryList".equals(m.param("as"))
                    && "apidiscovery.k8s.io".equals(m.param("g"))
                    && m.admitsJson()) {
                String v = m.param("v");
                if ("v2".equals(v) || "v2beta1".equals(v)) {
                    return v;
                }
            } else if (m.admitsJson() && m.param("as") == null) {
                return null;
            }
        }
        return null;
    }
}
