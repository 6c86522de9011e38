package io.kplane.kubelet.node;

import java.time.Duration;

/**
 * How long the kubelet waits before its next attempt to register its Node while the API server is
 * unreachable or refuses: as upstream's kubelet ({@code registerWithAPIServer}: 100 ms, doubling),
 * but capped at the heartbeat interval, so a kubelet started long before its API server registers
 * within one heartbeat of the server's arrival without hammering it meanwhile.
 */
final class RegistrationBackoff {
    static final Duration INITIAL = Duration.ofMillis(100);

    private final Duration cap;
    private Duration next = INITIAL;

    RegistrationBackoff(Duration cap) {
        this.cap = cap;
    }

    /** The delay before the next attempt; each call doubles the following one, up to the cap. */
    synchronized Duration next() {
        Duration delay = min(next, cap);
        next = min(next.multipliedBy(2), cap);
        return delay;
    }

    /** After a successful registration: a later outage starts again from {@link #INITIAL}. */
    synchronized void reset() {
        next = INITIAL;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
