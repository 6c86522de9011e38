package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * A pod condition (PodScheduled, Initialized, ContainersReady, Ready, DisruptionTarget, ...).
 */
@RecordBuilder
public record PodCondition(
        String type, String status, Instant lastProbeTime, Instant lastTransitionTime, String reason, String message)
        implements PodConditionBuilder.With {
    public static final String POD_SCHEDULED = "PodScheduled";
    public static final String INITIALIZED = "Initialized";
    public static final String CONTAINERS_READY = "ContainersReady";
    public static final String READY = "Ready";
    public static final String DISRUPTION_TARGET = "DisruptionTarget";

    public boolean isTrue() {
        return "True".equals(status);
    }
}
