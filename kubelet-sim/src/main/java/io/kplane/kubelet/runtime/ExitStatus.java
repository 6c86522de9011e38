package io.kplane.kubelet.runtime;

import java.time.Instant;

/**
 * How a container attempt ended. {@code exitCode} is 128 + signal for a process killed by a signal
 * (137 for SIGKILL, 143 for SIGTERM), as container runtimes report it.
 */
public record ExitStatus(int exitCode, Instant finishedAt, String message) {}
