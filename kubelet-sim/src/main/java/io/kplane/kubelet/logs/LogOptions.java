package io.kplane.kubelet.logs;

import java.time.Instant;

/**
 * What part of a container log to serve: the query of {@code GET /containerLogs/...} (and of
 * {@code pods/{name}/log}). {@code tailLines}, {@code since} and {@code limitBytes} are null when unset.
 */
public record LogOptions(
        boolean follow, Integer tailLines, boolean timestamps, Instant since, Long limitBytes, boolean previous) {

    public static LogOptions all() {
        return new LogOptions(false, null, false, null, null, false);
    }
}
