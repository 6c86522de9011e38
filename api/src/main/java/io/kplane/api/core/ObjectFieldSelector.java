package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Selects a field of the pod for an environment variable (the downward API).
 */
@RecordBuilder
public record ObjectFieldSelector(String apiVersion, String fieldPath) implements ObjectFieldSelectorBuilder.With {}
