package io.kplane.api.core;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * A port a node daemon listens on. Kubernetes spells the field {@code Port}.
 */
@RecordBuilder
public record DaemonEndpoint(@JsonProperty("Port") Integer port) implements DaemonEndpointBuilder.With {}
