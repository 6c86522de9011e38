package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Map;

/**
 * core/v1 Secret. {@code data} values are base64 as on the wire; {@code stringData} is write-only: the
 * server merges it into {@code data} and never stores it.
 */
@RecordBuilder
public record Secret(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        Map<String, String> data,
        Map<String, String> stringData,
        String type,
        Boolean immutable)
        implements SecretBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Secret";

    public Secret {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Secret withMetadata(ObjectMeta metadata) {
        return SecretBuilder.With.super.withMetadata(metadata);
    }
}
