package io.kplane.api.clock;

import java.time.Instant;
import java.util.Objects;

/**
 * Turns a Clock's spec into the status every component computes time from. Runs in the API server
 * on each write, with the server's wall time, so the anchor of a change is the moment it was stored.
 *
 * <p>Rules: {@code spec.time} jumps the cluster clock to that instant whenever it (or the mode)
 * changes; {@code spec.offset} sets wall + offset whenever it (or the mode) changes; otherwise the
 * cluster time continues from where it was at this instant, so changing only the rate or freezing
 * never makes time jump. An unchanged spec keeps the old status exactly (no drift).
 */
public final class ClockAnchors {
    private ClockAnchors() {}

    /**
     * @param spec      the new spec (validated)
     * @param oldSpec   the previous spec, {@code null} on create
     * @param oldStatus the previous status, {@code null} on create
     * @param wallNow   the server's wall time of this write
     * @param generation the generation of the new object
     */
    public static ClockStatus resolve(
            ClockSpec spec, ClockSpec oldSpec, ClockStatus oldStatus, Instant wallNow, long generation) {
        ClusterTime before = oldStatus == null ? ClusterTime.REAL : ClusterTime.of(oldStatus);
        String mode = spec == null || spec.mode() == null ? ClockSpec.REAL : spec.mode();
        if (oldStatus != null && oldSpec != null && Objects.equals(spec, oldSpec)) {
            return oldStatus.withObservedGeneration(generation);
        }
        boolean modeChanged = oldSpec == null || !mode.equals(oldSpec.mode());
        boolean timeChanged =
                spec.time() != null && (modeChanged || !spec.time().equals(oldSpec.time()));
        boolean offsetChanged =
                spec.offset() != null && (modeChanged || !spec.offset().equals(oldSpec.offset()));
        Instant continued = before.at(wallNow);
        Instant cluster =
                switch (mode) {
                    case ClockSpec.REAL -> wallNow;
                    case ClockSpec.OFFSET -> timeChanged
                            ? parseTime(spec.time())
                            : offsetChanged ? wallNow.plus(GoDuration.parse(spec.offset())) : continued;
                    default -> timeChanged ? parseTime(spec.time()) : continued;
                };
        long rate =
                switch (mode) {
                    case ClockSpec.FROZEN -> 0;
                    case ClockSpec.RATE -> spec.rate() == null ? 1 : spec.rate();
                    default -> 1;
                };
        return new ClockStatus(mode, wallNow, cluster, rate, generation);
    }

    /** RFC 3339 with any offset ({@code Z}, {@code +02:00}). */
    public static Instant parseTime(String text) {
        return java.time.OffsetDateTime.parse(text).toInstant();
    }
}
