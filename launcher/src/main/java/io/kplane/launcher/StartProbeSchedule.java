package io.kplane.launcher;

import java.time.Duration;

/**
 * How long the launcher waits between two probes of the components that are still starting: a short
 * fixed interval while a start normally ends (so {@code up} returns within one interval of the last
 * component's first 200; 15 s covers a quiet machine's whole start with room to spare, and a probe of a
 * component that is not up yet is one refused loopback connection), then longer as the start drags on
 * (a loaded machine, a first run that unpacks PostgreSQL), so a slow start is not paid for with a probe
 * storm.
 *
 * <p>A probe is one loopback connection ({@link HealthProbe}); the launcher used to probe every starting
 * component every 25 ms with {@code java.net.http}, which was most of its own 3–4 s of CPU during a start.
 */
record StartProbeSchedule(Duration fast, Duration fastFor, Duration slowest) {

    static StartProbeSchedule standard() {
        return new StartProbeSchedule(Duration.ofMillis(50), Duration.ofSeconds(15), Duration.ofMillis(250));
    }

    /** The delay before the next round of probes, {@code elapsed} after the start began. */
    Duration delayAfter(Duration elapsed) {
        if (elapsed.compareTo(fastFor) <= 0) {
            return fast;
        }
        // one more fast interval per further fastFor, up to the slowest
        long rounds = elapsed.minus(fastFor).toMillis() / Math.max(1, fastFor.toMillis()) + 2;
        Duration delay = fast.multipliedBy(rounds);
        return delay.compareTo(slowest) > 0 ? slowest : delay;
    }
}
