package io.kplane.apiserver.clock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.ClockAnchors;
import io.kplane.api.clock.ClockSpec;
import io.kplane.api.clock.ClockStatus;
import io.kplane.api.json.Json;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The cluster Clock's write policy: the server owns {@code status} and computes it from the spec on
 * every write ({@link ClockAnchors}), anchored at the server's wall time. A client-sent status is
 * ignored. Validation lives in the api module's ClockAdmission, which runs after this.
 */
public final class ClockStrategy {
    private ClockStrategy() {}

    public static boolean appliesTo(ResourceType type) {
        return type == ResourceTypes.CLOCKS;
    }

    /**
     * Replaces {@code object.status} with the anchors for its spec. {@code old} is the stored object
     * ({@code null} on create). A spec that does not parse leaves no status: admission rejects it.
     */
    public static void prepare(ObjectNode object, ObjectNode old, Instant wallNow) {
        object.remove("status");
        try {
            ClockSpec spec = spec(object);
            ClockSpec oldSpec = old == null ? null : spec(old);
            ClockStatus oldStatus = old == null || old.get("status") == null
                    ? null
                    : Json.mapper().treeToValue(old.get("status"), ClockStatus.class);
            if (spec.mode() == null) {
                spec = spec.withMode(ClockSpec.REAL);
            }
            if (oldSpec != null && oldSpec.mode() == null) {
                oldSpec = oldSpec.withMode(ClockSpec.REAL);
            }
            if (!ClockSpec.MODES.contains(spec.mode())) {
                return;
            }
            long generation = object.path("metadata").path("generation").asLong(1);
            ClockStatus status =
                    ClockAnchors.resolve(spec, oldSpec, oldStatus, wallNow.truncatedTo(ChronoUnit.MICROS), generation);
            status = status.withClusterAnchor(status.clusterAnchor().truncatedTo(ChronoUnit.MICROS));
            object.set("status", Json.mapper().valueToTree(status));
        } catch (Exception e) {
            object.remove("status");
        }
    }

    private static ClockSpec spec(ObjectNode object) throws Exception {
        JsonNode spec = object.get("spec");
        return spec == null || spec.isNull()
                ? new ClockSpec(null, null, null, null)
                : Json.mapper().treeToValue(spec, ClockSpec.class);
    }
}
