package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 PersistentVolume (cluster-scoped).
 */
@RecordBuilder
public record PersistentVolume(
        String apiVersion, String kind, ObjectMeta metadata, PersistentVolumeSpec spec, PersistentVolumeStatus status)
        implements PersistentVolumeBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "PersistentVolume";

    public PersistentVolume {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public PersistentVolume withMetadata(ObjectMeta metadata) {
        return PersistentVolumeBuilder.With.super.withMetadata(metadata);
    }
}
