package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 Binding: the body of POST pods/{name}/binding, which sets a pod's spec.nodeName.
 */
@RecordBuilder
public record Binding(String apiVersion, String kind, ObjectMeta metadata, ObjectReference target)
        implements BindingBuilder.With, KubeObject {
    public static final String API_VERSION = "v1";
    public static final String KIND = "Binding";

    public Binding {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Binding withMetadata(ObjectMeta metadata) {
        return BindingBuilder.With.super.withMetadata(metadata);
    }
}
