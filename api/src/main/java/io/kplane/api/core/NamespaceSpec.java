package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * core/v1 NamespaceSpec.
 */
@RecordBuilder
public record NamespaceSpec(List<String> finalizers) implements NamespaceSpecBuilder.With {}
