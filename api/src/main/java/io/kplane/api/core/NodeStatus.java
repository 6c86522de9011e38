package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * core/v1 NodeStatus as the kubelet reports it. Quantities are kept as their string form.
 */
@RecordBuilder
public record NodeStatus(
        Map<String, String> capacity,
        Map<String, String> allocatable,
        String phase,
        List<NodeCondition> conditions,
        List<NodeAddress> addresses,
        NodeDaemonEndpoints daemonEndpoints,
        NodeSystemInfo nodeInfo,
        List<JsonNode> images,
        List<String> volumesInUse,
        List<JsonNode> volumesAttached,
        JsonNode config,
        List<JsonNode> runtimeHandlers,
        JsonNode features)
        implements NodeStatusBuilder.With {
    public List<NodeCondition> conditionsOrEmpty() {
        return conditions == null ? List.of() : conditions;
    }

    /** The condition of the given type, or {@code null}. */
    public NodeCondition condition(String type) {
        for (NodeCondition c : conditionsOrEmpty()) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }
}
