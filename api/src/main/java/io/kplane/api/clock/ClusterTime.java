package io.kplane.api.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * Cluster time as a function of wall time: {@code clusterAnchor + (wall − wallAnchor) × rate}. Every
 * component (and the API server) computes it from the same {@link ClockStatus}, so they agree to the
 * precision of their wall clocks. Rate 0 is a frozen clock.
 */
public record ClusterTime(String mode, Instant wallAnchor, Instant clusterAnchor, long rate) {
    /** Plain wall time. */
    public static final ClusterTime REAL = new ClusterTime(ClockSpec.REAL, Instant.EPOCH, Instant.EPOCH, 1);

    public static ClusterTime of(ClockStatus status) {
        if (status.wallAnchor() == null || status.clusterAnchor() == null) {
            return REAL;
        }
        long rate = status.rate() == null ? 1 : status.rate();
        String mode = status.mode() == null ? ClockSpec.REAL : status.mode();
        return new ClusterTime(mode, status.wallAnchor(), status.clusterAnchor(), rate);
    }

    /** True when cluster time is wall time (no offset, rate 1): callers may skip the arithmetic. */
    public boolean isReal() {
        return rate == 1 && wallAnchor.equals(clusterAnchor);
    }

    public boolean isFrozen() {
        return rate == 0;
    }

    /** The cluster time at wall instant {@code wall}. */
    public Instant at(Instant wall) {
        if (rate == 0) {
            return clusterAnchor;
        }
        Duration sinceAnchor = Duration.between(wallAnchor, wall);
        return clusterAnchor.plus(rate == 1 ? sinceAnchor : sinceAnchor.multipliedBy(rate));
    }

    /**
     * How long to wait on the wall clock until cluster time reaches {@code clusterInstant}, from wall
     * instant {@code wall}; {@code null} if it never will by itself (a frozen clock before that time).
     */
    public Duration wallDelayUntil(Instant clusterInstant, Instant wall) {
        Duration clusterDelay = Duration.between(at(wall), clusterInstant);
        if (clusterDelay.isNegative() || clusterDelay.isZero()) {
            return Duration.ZERO;
        }
        if (rate == 0) {
            return null;
        }
        return rate == 1 ? clusterDelay : clusterDelay.dividedBy(rate);
    }

    /** Cluster time minus wall time at {@code wall} (the offset of an Offset clock). */
    public Duration offsetAt(Instant wall) {
        return Duration.between(wall, at(wall));
    }
}
