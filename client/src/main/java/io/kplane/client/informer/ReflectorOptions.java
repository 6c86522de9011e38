package io.kplane.client.informer;

import java.time.Duration;

/**
 * Tuning of a {@link Reflector}.
 *
 * @param pageSize        list page size ({@code limit}); 0 lists in one request
 * @param minWatchTimeout watches ask for a random {@code timeoutSeconds} in [min, 2*min), like client-go
 * @param initialBackoff  first delay after a failure; doubles up to {@code maxBackoff}, reset by a good watch
 */
public record ReflectorOptions(long pageSize, Duration minWatchTimeout, Duration initialBackoff, Duration maxBackoff) {
    public static final ReflectorOptions DEFAULT =
            new ReflectorOptions(500, Duration.ofMinutes(5), Duration.ofMillis(800), Duration.ofSeconds(30));

    public ReflectorOptions withPageSize(long size) {
        return new ReflectorOptions(size, minWatchTimeout, initialBackoff, maxBackoff);
    }

    public ReflectorOptions withMinWatchTimeout(Duration d) {
        return new ReflectorOptions(pageSize, d, initialBackoff, maxBackoff);
    }

    public ReflectorOptions withBackoff(Duration initial, Duration max) {
        return new ReflectorOptions(pageSize, minWatchTimeout, initial, max);
    }
}
