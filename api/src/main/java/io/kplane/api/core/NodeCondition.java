package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * A node condition (Ready, MemoryPressure, ...).
 */
@RecordBuilder
public record NodeCondition(
        String type,
        String status,
        Instant lastHeartbeatTime,
        Instant lastTransitionTime,
        String reason,
        String message)
        implements NodeConditionBuilder.With {
    public static final String READY = "Ready";
}
