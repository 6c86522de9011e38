package io.kplane.api.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Where an environment variable's value comes from. Only fieldRef is interpreted; the other sources
 * are kept verbatim.
 */
@RecordBuilder
public record EnvVarSource(
        ObjectFieldSelector fieldRef, JsonNode resourceFieldRef, JsonNode configMapKeyRef, JsonNode secretKeyRef)
        implements EnvVarSourceBuilder.With {}
