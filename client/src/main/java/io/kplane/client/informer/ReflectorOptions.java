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
 * @param startupRetry    while the reflector has never listed, and for at most {@code startupWindow} after it
 *                        started, a failed attempt is retried after this fixed interval instead of the
 *                        doubling back-off; {@link Duration#ZERO} (the default) turns it off. For what every
 *                        component waits for at start: `./kplane up` starts all components beside their API
 *                        server, and a doubled wait (100, 200, 400, 800 ms...) let the kubelet list the cluster
 *                        clock 0.97 s after the server began to serve.
 * @param startupWindow   how long {@code startupRetry} applies; afterwards a server that is still away is
 *                        polled with the doubling back-off, as after any outage
 */
public record ReflectorOptions(
        long pageSize,
        Duration minWatchTimeout,
        Duration initialBackoff,
        Duration maxBackoff,
        Duration watchIdleTimeout,
        Duration startupRetry,
        Duration startupWindow) {
    /** The server's bookmark interval: a healthy watch is never silent for longer. */
    public static final Duration BOOKMARK_INTERVAL = Duration.ofSeconds(60);

    public static final ReflectorOptions DEFAULT = new ReflectorOptions(
            500,
            Duration.ofMinutes(5),
            Duration.ofMillis(800),
            Duration.ofSeconds(30),
            BOOKMARK_INTERVAL.multipliedBy(2),
            Duration.ZERO,
            Duration.ZERO);

    public ReflectorOptions(long pageSize, Duration minWatchTimeout, Duration initialBackoff, Duration maxBackoff) {
        this(
                pageSize,
                minWatchTimeout,
                initialBackoff,
                maxBackoff,
                BOOKMARK_INTERVAL.multipliedBy(2),
                Duration.ZERO,
                Duration.ZERO);
    }

    public ReflectorOptions withPageSize(long size) {
        return new ReflectorOptions(
                size, minWatchTimeout, initialBackoff, maxBackoff, watchIdleTimeout, startupRetry, startupWindow);
    }

    public ReflectorOptions withMinWatchTimeout(Duration d) {
        return new ReflectorOptions(
                pageSize, d, initialBackoff, maxBackoff, watchIdleTimeout, startupRetry, startupWindow);
    }

    public ReflectorOptions withBackoff(Duration initial, Duration max) {
        return new ReflectorOptions(
                pageSize, minWatchTimeout, initial, max, watchIdleTimeout, startupRetry, startupWindow);
    }

    public ReflectorOptions withWatchIdleTimeout(Duration d) {
        return new ReflectorOptions(
                pageSize, minWatchTimeout, initialBackoff, maxBackoff, d, startupRetry, startupWindow);
    }

    public ReflectorOptions withStartupRetry(Duration interval, Duration window) {
        return new ReflectorOptions(
                pageSize, minWatchTimeout, initialBackoff, maxBackoff, watchIdleTimeout, interval, window);
    }
}
