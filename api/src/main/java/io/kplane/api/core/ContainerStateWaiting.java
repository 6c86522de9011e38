package io.kplane.api.core;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * A container that is not running yet (reason e.g. ContainerCreating, CrashLoopBackOff).
 */
@RecordBuilder
public record ContainerStateWaiting(String reason, String message) implements ContainerStateWaitingBuilder.With {}
