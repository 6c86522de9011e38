package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 Namespace (cluster-scoped).
 */
@RecordBuilder
public record Namespace(String apiVersion, String kind, ObjectMeta metadata, NamespaceSpec spec, NamespaceStatus status)
        implements NamespaceBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Namespace";

    public Namespace {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Namespace withMetadata(ObjectMeta metadata) {
        return NamespaceBuilder.With.super.withMetadata(metadata);
    }
}
