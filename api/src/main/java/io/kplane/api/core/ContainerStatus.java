package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * The observed state of one container of a pod.
 */
@RecordBuilder
public record ContainerStatus(
        String name,
        ContainerState state,
        ContainerState lastState,
        Boolean ready,
        Integer restartCount,
        String image,
        String imageID,
        String containerID,
        Boolean started,
        Map<String, JsonNode> allocatedResources,
        JsonNode resources,
        List<JsonNode> volumeMounts,
        JsonNode user,
        List<JsonNode> allocatedResourcesStatus)
        implements ContainerStatusBuilder.With {}
