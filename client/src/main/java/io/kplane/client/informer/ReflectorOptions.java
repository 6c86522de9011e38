package io.kplane.client.informer;

import java.time.Duration;

/**
 * Tuning of a {@link Reflector}.
 *
 * @param pageSize        list page size ({@code limit}); 0 lists in one request
 * @param minWatchTimeout watches ask for a random {@code timeoutSeconds} in [min, 2*min), like client-go
 * @param initialBackoff  first delay after a failure; doubles up to {@code maxBackoff}, reset by a good watch
 * @param watchIdleTimeout a watch that delivers nothing (not even a bookmark) for this long is presumed
 *                        half-open (a dead peer, a silently dropped connection) and replaced by a new
 *                        one from the last resourceVersion. The server sends a bookmark every 60 s, so
 *                        the default is twice that.
 */
public record ReflectorOptions(
        long pageSize,
        Duration minWatchTimeout,
        Duration initialBackoff,
        Duration maxBackoff,
        Duration watchIdleTimeout) {
    /** The server's bookmark interval: a healthy watch is never silent for longer. */
    public static final Duration BOOKMARK_INTERVAL = Duration.ofSeconds(60);

    public static final ReflectorOptions DEFAULT = new ReflectorOptions(
            500,
            Duration.ofMinutes(5),
            Duration.ofMillis(800),
            Duration.ofSeconds(30),
            BOOKMARK_INTERVAL.multipliedBy(2));

    public ReflectorOptions(long pageSize, Duration minWatchTimeout, Duration initialBackoff, Duration maxBackoff) {
        this(pageSize, minWatchTimeout, initialBackoff, maxBackoff, BOOKMARK_INTERVAL.multipliedBy(2));
    }

    public ReflectorOptions withPageSize(long size) {
        return new ReflectorOptions(size, minWatchTimeout, initialBackoff, maxBackoff, watchIdleTimeout);
    }

    public ReflectorOptions withMinWatchTimeout(Duration d) {
        return new ReflectorOptions(pageSize, d, initialBackoff, maxBackoff, watchIdleTimeout);
    }

    public ReflectorOptions withBackoff(Duration initial, Duration max) {
        return new ReflectorOptions(pageSize, minWatchTimeout, initial, max, watchIdleTimeout);
    }

    public ReflectorOptions withWatchIdleTimeout(Duration d) {
        return new ReflectorOptions(pageSize, minWatchTimeout, initialBackoff, maxBackoff, d);
    }
}
