package io.kplane.api.core;

import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * The pod a controller creates: metadata and spec.
 */
@RecordBuilder
public record PodTemplateSpec(ObjectMeta metadata, PodSpec spec) implements PodTemplateSpecBuilder.With {}
