package io.kplane.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes {@code metadata}. Timestamps are {@link Instant}s serialised as RFC 3339
 * (see {@link io.kplane.api.json.Json}). Absent fields are {@code null} and are not written.
 */
@RecordBuilder
public record ObjectMeta(
        String name,
        String generateName,
        String namespace,
        String uid,
        String resourceVersion,
        Long generation,
        Instant creationTimestamp,
        Instant deletionTimestamp,
        Long deletionGracePeriodSeconds,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<OwnerReference> ownerReferences,
        List<String> finalizers,
        List<JsonNode> managedFields)
        implements ObjectMetaBuilder.With {

    public static ObjectMeta named(String namespace, String name) {
        return ObjectMetaBuilder.builder().namespace(namespace).name(name).build();
    }

    public Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }

    public Map<String, String> annotationsOrEmpty() {
        return annotations == null ? Map.of() : annotations;
    }

    public List<OwnerReference> ownerReferencesOrEmpty() {
        return ownerReferences == null ? List.of() : ownerReferences;
    }

    public List<String> finalizersOrEmpty() {
        return finalizers == null ? List.of() : finalizers;
    }

    /** The controller owner reference ({@code controller: true}), if any. */
    public OwnerReference controllerRef() {
        for (OwnerReference ref : ownerReferencesOrEmpty()) {
            if (Boolean.TRUE.equals(ref.controller())) {
                return ref;
            }
        }
        return null;
    }

    public boolean isBeingDeleted() {
        return deletionTimestamp != null;
    }
}
