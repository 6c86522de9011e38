package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * A running container.
 */
@RecordBuilder
public record ContainerStateRunning(Instant startedAt) implements ContainerStateRunningBuilder.With {}
