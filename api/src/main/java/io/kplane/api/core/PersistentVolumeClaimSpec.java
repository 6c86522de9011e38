package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.meta.LabelSelector;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/** core/v1 PersistentVolumeClaimSpec. Data sources are kept as JSON: kplane provisions empty volumes only. */
@RecordBuilder
public record PersistentVolumeClaimSpec(
        List<String> accessModes,
        LabelSelector selector,
        VolumeResourceRequirements resources,
        String volumeName,
        String storageClassName,
        String volumeMode,
        JsonNode dataSource,
        JsonNode dataSourceRef,
        String volumeAttributesClassName)
        implements PersistentVolumeClaimSpecBuilder.With {}
