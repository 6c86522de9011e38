package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Top-level fields that Kubernetes' Go types declare as non-pointer structs ({@code Spec PodSpec},
 * {@code Status JobStatus}, {@code Spec LeaseSpec}, ...): {@code omitempty} never drops a struct, so
 * kube-apiserver always returns them, as {@code {}} when nothing is set. Clients rely on it (fabric8 and
 * the official client's typed models, {@code kubectl get -o jsonpath='{.status}'}), so a Lease created
 * without a spec answers {@code "spec":{}} and a new Job {@code "status":{}}.
 */
public final class EmptyStructs {
    private static final Map<String, List<String>> BY_KIND = Map.of(
            "Pod", List.of("spec", "status"),
            "Job", List.of("spec", "status"),
            "CronJob", List.of("spec", "status"),
            "Namespace", List.of("spec", "status"),
            "Node", List.of("spec", "status"),
            "PersistentVolumeClaim", List.of("spec", "status"),
            "PersistentVolume", List.of("spec", "status"),
            "Lease", List.of("spec"),
            "Event", List.of("involvedObject", "source"));

    private EmptyStructs() {}

    /** The struct fields of a kind, in the order {@link #fill} appends the missing ones. */
    public static List<String> fieldsOf(String kind) {
        return kind == null ? List.of() : BY_KIND.getOrDefault(kind, List.of());
    }

    /**
     * Sets each of the object's kind's struct fields that is absent or null to {@code {}} (after
     * admission, whose typed round trip drops empty objects) and returns the object.
     */
    public static ObjectNode fill(ObjectNode object) {
        JsonNode kind = object.get("kind");
        if (kind == null) {
            return object;
        }
        for (String field : fieldsOf(kind.asText())) {
            JsonNode value = object.get(field);
            if (value == null || value.isNull()) {
                object.putObject(field);
            }
        }
        return object;
    }
}
