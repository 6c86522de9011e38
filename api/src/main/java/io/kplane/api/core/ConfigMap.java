package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Map;

/**
 * core/v1 ConfigMap: string {@code data} and base64 {@code binaryData}; {@code immutable} freezes both.
 */
@RecordBuilder
public record ConfigMap(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        Map<String, String> data,
        Map<String, String> binaryData,
        Boolean immutable)
        implements ConfigMapBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "ConfigMap";

    public ConfigMap {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public ConfigMap withMetadata(ObjectMeta metadata) {
        return ConfigMapBuilder.With.super.withMetadata(metadata);
    }
}
