package io.kplane.client.retry;

import java.time.Duration;

/**
 * The delay before the next attempt at something that cannot reach the API server yet: 100 ms,
 * doubling, up to a cap (as upstream's kubelet registers its Node). A component started beside its API
 * server (`./kplane up` starts every component at once) then gets through within a fraction of a second
 * of the server's arrival, and a long outage is still polled only once per cap. Users: the leader
 * elector while the lease cannot be read at all (cap: the retry period) and the kubelet's Node
 * registration (cap: the heartbeat interval).
 */
public final class CappedDoublingBackoff {
    public static final Duration FIRST = Duration.ofMillis(100);

    private final Duration cap;
    private Duration next = FIRST;

    public CappedDoublingBackoff(Duration cap) {
        this.cap = cap;
    }

    /** The delay before the next attempt; each call doubles the following one, up to the cap. */
    public synchronized Duration next() {
        Duration delay = min(next, cap);
        next = min(next.multipliedBy(2), cap);
        return delay;
    }

    /** The attempt got through: a later outage starts again from {@link #FIRST}. */
    public synchronized void reset() {
        next = FIRST;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
