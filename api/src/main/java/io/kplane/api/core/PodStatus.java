package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;

/**
 * core/v1 PodStatus as the kubelet reports it.
 */
@RecordBuilder
public record PodStatus(
        String phase,
        List<PodCondition> conditions,
        String message,
        String reason,
        String nominatedNodeName,
        String hostIP,
        List<JsonNode> hostIPs,
        String podIP,
        List<JsonNode> podIPs,
        Instant startTime,
        List<ContainerStatus> initContainerStatuses,
        List<ContainerStatus> containerStatuses,
        String qosClass,
        List<ContainerStatus> ephemeralContainerStatuses,
        String resize,
        List<JsonNode> resourceClaimStatuses)
        implements PodStatusBuilder.With {
    public static final String PENDING = "Pending";
    public static final String RUNNING = "Running";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    public static final String UNKNOWN = "Unknown";

    public List<PodCondition> conditionsOrEmpty() {
        return conditions == null ? List.of() : conditions;
    }

    public List<ContainerStatus> containerStatusesOrEmpty() {
        return containerStatuses == null ? List.of() : containerStatuses;
    }

    /** The condition of the given type, or {@code null}. */
    public PodCondition condition(String type) {
        for (PodCondition c : conditionsOrEmpty()) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }
}
