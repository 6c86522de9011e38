package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * The component and host that reported an event.
 */
@RecordBuilder
public record EventSource(String component, String host) implements EventSourceBuilder.With {}
