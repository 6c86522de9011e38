package io.kplane.kubelet.pod;

import java.time.Duration;

/**
 * The kubelet's restart back-off: the first restart is immediate, then base (10 s), doubling up to max
 * (5 min); a container that ran longer than twice the maximum starts over. {@code step} is the
 * number of back-off restarts since the last reset.
 */
public record CrashLoopBackoff(Duration base, Duration max) {

    public Duration delay(int step) {
        if (step <= 0) {
            return Duration.ZERO;
        }
        Duration d = base;
        for (int i = 1; i < step && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }

    public boolean resets(Duration lastRun) {
        return lastRun.compareTo(max.multipliedBy(2)) > 0;
    }
}
