package io.kplane.controllers.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.client.ApiException;
import io.kplane.client.RawClient;
import io.kplane.controllers.namespace.NamespacedResourceDiscovery.ServedResource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Deletes the content of a namespace, one served resource at a time, as upstream's
 * namespacedResourcesDeleter: every object not yet being deleted gets a DELETE with background
 * propagation and its uid as precondition; then the resource is listed again and what remains is
 * counted, by resource and by finalizer. Objects with finalizers stay until their controllers remove
 * them; bound pods until their kubelet has stopped them. Nothing here waits: the caller requeues.
 */
final class NamespaceContentDeleter {
    private static final byte[] BACKGROUND =
            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Background\"}"
                    .getBytes(StandardCharsets.UTF_8);

    /** What is left after one pass. */
    record Totals(
            Map<String, Integer> remainingByResource,
            Map<String, Integer> remainingByFinalizer,
            List<String> deleteErrors) {
        boolean contentRemains() {
            return !remainingByResource.isEmpty() || !deleteErrors.isEmpty();
        }
    }

    private final RawClient raw;

    NamespaceContentDeleter(RawClient raw) {
        this.raw = raw;
    }

    Totals deleteAll(String namespace, List<ServedResource> resources) {
        Map<String, Integer> byResource = new TreeMap<>();
        Map<String, Integer> byFinalizer = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        for (ServedResource resource : resources) {
            try {
                deleteEach(namespace, resource);
                List<JsonNode> left = list(namespace, resource);
                if (!left.isEmpty()) {
                    // upstream's "<resource>.<group>" (pods. for the core group)
                    byResource.put(resource.resource() + "." + resource.group(), left.size());
                }
                for (JsonNode item : left) {
                    for (JsonNode f : item.path("metadata").path("finalizers")) {
                        byFinalizer.merge(f.asText(), 1, Integer::sum);
                    }
                }
            } catch (ApiException e) {
                errors.add(resource.resource() + "." + resource.group() + ": " + e.getMessage());
            }
        }
        return new Totals(byResource, byFinalizer, errors);
    }

    private void deleteEach(String namespace, ServedResource resource) {
        for (JsonNode item : list(namespace, resource)) {
            JsonNode meta = item.path("metadata");
            if (meta.hasNonNull("deletionTimestamp")) {
                continue; // already going; its finalizers or its kubelet decide when
            }
            String name = meta.path("name").asText();
            deleteIgnoringGone(resource.collectionPath(namespace) + "/" + name, BACKGROUND);
        }
    }

    private List<JsonNode> list(String namespace, ServedResource resource) {
        byte[] body = raw.request("GET", resource.collectionPath(namespace), Map.of(), null, null, "application/json")
                .body();
        try {
            List<JsonNode> items = new ArrayList<>();
            Json.mapper().readTree(body).path("items").forEach(items::add);
            return items;
        } catch (IOException e) {
            throw new ApiException(
                    500, "InternalError", "unreadable list of " + resource.resource() + ": " + e.getMessage(), null);
        }
    }

    /** DELETE that treats "already gone" (404) and "changed meanwhile" (409) as done for this pass. */
    private void deleteIgnoringGone(String path, byte[] options) {
        try {
            raw.request("DELETE", path, Map.of(), options, "application/json", "application/json");
        } catch (ApiException e) {
            if (!e.isNotFound() && !e.isConflict()) {
                throw e;
            }
        }
    }
}
