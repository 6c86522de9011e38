package io.kplane.client.leaderelection;

import java.time.Duration;

/**
 * How long a candidate waits before its next attempt while it cannot reach the API server at all (as
 * opposed to a lease held by someone else, which is retried every {@code retryPeriod}): 100 ms, doubling,
 * up to the retry period. A controller started beside its API server ({@code ./kplane up} starts every
 * component at once) then leads within a fraction of a second of the server's arrival instead of up to a
 * whole retry period later, and a long outage is still polled only once per retry period.
 */
final class UnreachableRetry {
    static final Duration FIRST = Duration.ofMillis(100);

    private final Duration cap;
    private Duration next = FIRST;

    UnreachableRetry(Duration cap) {
        this.cap = cap;
    }

    /** The delay before the next attempt; each call doubles the following one, up to the cap. */
    Duration next() {
        Duration delay = min(next, cap);
        next = min(next.multipliedBy(2), cap);
        return delay;
    }

    /** The API server answered: a later outage starts again from {@link #FIRST}. */
    void reset() {
        next = FIRST;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
