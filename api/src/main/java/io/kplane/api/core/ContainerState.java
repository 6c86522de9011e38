package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * Exactly one of waiting, running or terminated is set.
 */
@RecordBuilder
public record ContainerState(
        ContainerStateWaiting waiting, ContainerStateRunning running, ContainerStateTerminated terminated)
        implements ContainerStateBuilder.With {
    public static ContainerState waiting(String reason, String message) {
        return new ContainerState(new ContainerStateWaiting(reason, message), null, null);
    }

    public static ContainerState running(Instant startedAt) {
        return new ContainerState(null, new ContainerStateRunning(startedAt), null);
    }

    public static ContainerState terminated(ContainerStateTerminated terminated) {
        return new ContainerState(null, null, terminated);
    }
}
