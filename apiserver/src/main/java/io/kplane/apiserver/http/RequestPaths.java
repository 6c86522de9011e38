package io.kplane.apiserver.http;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.apiserver.errors.ApiError;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses resource paths:
 * <pre>
 * /api/v1/{resource}[/{name}[/{sub}]]
 * /api/v1/namespaces/{ns}/{resource}[/{name}[/{sub}]]
 * /apis/{group}/{version}/...   (same shapes)
 * </pre>
 * Anything else is a 404 NotFound.
 */
public final class RequestPaths {
    private RequestPaths() {}

    public static RequestInfo parse(String path) {
        List<String> parts = split(path);
        int i;
        String group;
        String version;
        if (parts.size() >= 2 && parts.get(0).equals("api")) {
            group = "";
            version = parts.get(1);
            i = 2;
        } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            version = parts.get(2);
            i = 3;
        } else {
            throw ApiError.pathNotFound();
        }
        List<String> rest = parts.subList(i, parts.size());
        if (rest.isEmpty()) {
            throw ApiError.pathNotFound();
        }
        // namespaces/{ns}/{resource}... but namespaces/{name}[/status] addresses the namespace itself.
        if (rest.get(0).equals("namespaces") && rest.size() >= 3 && !isNamespaceSubresource(group, rest)) {
            String namespace = rest.get(1);
            ResourceType resource = lookup(group, version, rest.get(2));
            if (!resource.namespaced()) {
                throw ApiError.pathNotFound();
            }
            return build(resource, namespace, rest.subList(3, rest.size()));
        }
        ResourceType resource = lookup(group, version, rest.get(0));
        List<String> tail = rest.subList(1, rest.size());
        if (resource.namespaced() && !tail.isEmpty()) {
            // a namespaced object must be addressed through its namespace
            throw ApiError.pathNotFound();
        }
        return build(resource, null, tail);
    }

    private static boolean isNamespaceSubresource(String group, List<String> rest) {
        return group.isEmpty()
                && rest.size() == 3
                && (rest.get(2).equals("status") || rest.get(2).equals("finalize"));
    }

    private static RequestInfo build(ResourceType resource, String namespace, List<String> tail) {
        if (tail.size() > 2) {
            throw ApiError.pathNotFound();
        }
        String name = tail.isEmpty() ? null : tail.get(0);
        String sub = tail.size() == 2 ? tail.get(1) : null;
        if (sub != null && !resource.hasSubresource(sub)) {
            throw ApiError.pathNotFound();
        }
        return new RequestInfo(resource, namespace, name, sub);
    }

    private static ResourceType lookup(String group, String version, String plural) {
        return ResourceTypes.ALL.stream()
                .filter(t -> t.group().equals(group)
                        && t.version().equals(version)
                        && t.resource().equals(plural))
                .findFirst()
                .orElseThrow(ApiError::pathNotFound);
    }

    static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        for (String p : path.split("/")) {
            if (!p.isEmpty()) {
                try {
                    parts.add(URLDecoder.decode(p.replace("+", "%2B"), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    throw ApiError.badRequest("malformed path segment: " + p);
                }
            }
        }
        return parts;
    }
}
