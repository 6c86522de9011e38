package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * core/v1 PersistentVolumeSpec. {@code hostPath} and {@code local} are the sources kplane's kubelet can
 * mount (both are a directory on the node); any other source is kept as JSON and stored as given.
 */
@RecordBuilder
public record PersistentVolumeSpec(
        Map<String, String> capacity,
        List<String> accessModes,
        ObjectReference claimRef,
        String persistentVolumeReclaimPolicy,
        String storageClassName,
        List<String> mountOptions,
        String volumeMode,
        JsonNode nodeAffinity,
        String volumeAttributesClassName,
        HostPathVolumeSource hostPath,
        LocalVolumeSource local,
        JsonNode nfs,
        JsonNode csi)
        implements PersistentVolumeSpecBuilder.With {}
