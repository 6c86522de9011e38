package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * A container that has exited.
 */
@RecordBuilder
public record ContainerStateTerminated(
        Integer exitCode,
        Integer signal,
        String reason,
        String message,
        Instant startedAt,
        Instant finishedAt,
        String containerID)
        implements ContainerStateTerminatedBuilder.With {}
