package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/** core/v1 PersistentVolumeClaimStatus. */
@RecordBuilder
public record PersistentVolumeClaimStatus(
        String phase,
        List<String> accessModes,
        Map<String, String> capacity,
        List<JsonNode> conditions,
        Map<String, String> allocatedResources,
        Map<String, String> allocatedResourceStatuses,
        String currentVolumeAttributesClassName,
        JsonNode modifyVolumeStatus)
        implements PersistentVolumeClaimStatusBuilder.With {}
