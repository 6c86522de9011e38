package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 PersistentVolumeClaim; bound by the local provisioner to a directory-backed PersistentVolume.
 */
@RecordBuilder
public record PersistentVolumeClaim(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        PersistentVolumeClaimSpec spec,
        PersistentVolumeClaimStatus status)
        implements PersistentVolumeClaimBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "PersistentVolumeClaim";

    public PersistentVolumeClaim {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public PersistentVolumeClaim withMetadata(ObjectMeta metadata) {
        return PersistentVolumeClaimBuilder.With.super.withMetadata(metadata);
    }
}
