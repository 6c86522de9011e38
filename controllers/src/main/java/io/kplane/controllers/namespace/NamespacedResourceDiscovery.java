package io.kplane.controllers.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.client.KubeClientException;
import io.kplane.client.RawClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every namespaced resource the API server serves that can be listed and deleted, found through
 * discovery ({@code /api}, {@code /apis}, each group's preferred version), as client-go's
 * {@code ServerPreferredNamespacedResources} does for the namespace controller: a kind added to the
 * server is cascaded with no change here.
 */
final class NamespacedResourceDiscovery {
    /** One served resource: its collection path prefix ({@code /api/v1}, {@code /apis/batch/v1}). */
    record ServedResource(String groupVersionPath, String group, String resource) {
        String collectionPath(String namespace) {
            return groupVersionPath + "/namespaces/" + namespace + "/" + resource;
        }
    }

    /** What discovery found, and the group versions it could not read (each a message). */
    record Result(List<ServedResource> resources, List<String> failures) {}

    private final RawClient raw;

    NamespacedResourceDiscovery(RawClient raw) {
        this.raw = raw;
    }

    Result discover() {
        List<ServedResource> resources = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (JsonNode version : get("/api").path("versions")) {
            read("/api/" + version.asText(), "", resources, failures);
        }
        for (JsonNode group : get("/apis").path("groups")) {
            String groupVersion =
                    group.path("preferredVersion").path("groupVersion").asText();
            read("/apis/" + groupVersion, group.path("name").asText(), resources, failures);
        }
        return new Result(resources, failures);
    }

    private void read(String path, String group, List<ServedResource> into, List<String> failures) {
        JsonNode list;
        try {
            list = get(path);
        } catch (KubeClientException e) {
            failures.add(path + ": " + e.getMessage());
            return;
        }
        for (JsonNode r : list.path("resources")) {
            String name = r.path("name").asText();
            if (name.contains("/") || !r.path("namespaced").asBoolean()) {
                continue; // subresources; cluster-scoped kinds
            }
            List<String> verbs = new ArrayList<>();
            r.path("verbs").forEach(v -> verbs.add(v.asText()));
            if (verbs.contains("list") && verbs.contains("delete")) {
                into.add(new ServedResource(path, group, name));
            }
        }
    }

    private JsonNode get(String path) {
        try {
            return Json.mapper()
                    .readTree(raw.request("GET", path, Map.of(), null, null, "application/json")
                            .body());
        } catch (java.io.IOException e) {
            throw new KubeClientException("unreadable discovery document " + path + ": " + e.getMessage(), e);
        }
    }
}
