package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which scheduled time a CronJob owes a Job for, and when to look again: Kubernetes'
 * {@code mostRecentScheduleTime}, {@code nextScheduleTime} and {@code nextScheduleTimeDuration}.
 *
 * <p>One deliberate difference: upstream estimates the number of missed times from the gap
 * between the first two, which can return "none" for irregular schedules (e.g. weekdays only)
 * after a long outage. Here the most recent time is exact: we step forward at most
 * {@value #TOO_MANY_MISSED} times, and beyond that search back from now.
 */
public final class ScheduleMath {
    /** More missed start times than this yields the TooManyMissedTimes warning. */
    public static final int TOO_MANY_MISSED = 100;
    /** Requeue padding Kubernetes adds for clock skew ({@code nextScheduleDelta}). */
    /**
     * Upstream requeues 100 ms after the next schedule time, so that a wall-clock timer waking a hair
     * early still finds the time reached. kplane's clocks never run a timer before its due time (the
     * cluster clock re-checks and re-arms), and a cluster clock stepped exactly onto a schedule time
     * ({@code clock advance --step 1m}) must run it in that step: no delta.
     */
    public static final Duration NEXT_SCHEDULE_DELTA = Duration.ZERO;

    private ScheduleMath() {}

    public enum Missed {
        NONE,
        FEW,
        MANY
    }

    /**
     * @param earliest   the last schedule time, or the creation time (possibly moved up to the
     *                   starting deadline)
     * @param mostRecent the latest schedule time in (earliest, now], or null if there is none
     */
    public record Recent(Instant earliest, Instant mostRecent, Missed missed) {}

    /** The schedule admits no time at all (e.g. {@code 59 23 31 2 *}). */
    public static final class InvalidScheduleException extends Exception {
        public InvalidScheduleException(String message) {
            super(message);
        }
    }

    /**
     * Kubernetes' {@code mostRecentScheduleTime}: the schedule times in (earliest, now] where earliest
     * is {@code lastScheduleTime}, else {@code creationTimestamp}, moved up to
     * {@code now - startingDeadlineSeconds} when {@code includeDeadline} and that is later.
     */
    public static Recent mostRecent(
            CronSchedule schedule,
            Instant creation,
            Instant lastScheduleTime,
            Long startingDeadlineSeconds,
            Instant now,
            boolean includeDeadline)
            throws InvalidScheduleException {
        Instant earliest = lastScheduleTime != null ? lastScheduleTime : creation;
        if (includeDeadline && startingDeadlineSeconds != null) {
            Instant deadline = now.minusSeconds(startingDeadlineSeconds);
            if (deadline.isAfter(earliest)) {
                earliest = deadline;
            }
        }
        Optional<Instant> first = schedule.nextAfter(earliest);
        if (first.isEmpty()) {
            throw new InvalidScheduleException("time difference between two schedules is less than 1 second");
        }
        Instant t1 = first.get();
        if (now.isBefore(t1)) {
            return new Recent(earliest, null, Missed.NONE);
        }
        Instant latest = t1;
        int count = 1;
        for (Optional<Instant> t = schedule.nextAfter(t1);
                t.isPresent() && !t.get().isAfter(now);
                t = schedule.nextAfter(t.get())) {
            latest = t.get();
            if (++count > TOO_MANY_MISSED) {
                return new Recent(earliest, latestAtOrBefore(schedule, now, earliest, t1), Missed.MANY);
            }
        }
        // Like upstream, a single due time is not reported as "missed".
        return new Recent(earliest, latest, count == 1 ? Missed.NONE : Missed.FEW);
    }

    /**
     * How many schedule times lie in (earliest, now], counting at most {@code cap} (then {@code cap} is
     * returned). Only the lens asks, to say how many runs a sync skipped; the sync itself needs no count.
     */
    public static long countTimes(CronSchedule schedule, Instant earliest, Instant now, long cap) {
        Optional<Duration> interval = schedule.constantInterval();
        Optional<Instant> first = schedule.nextAfter(earliest);
        if (first.isEmpty() || now.isBefore(first.get())) {
            return 0;
        }
        if (interval.isPresent() && !interval.get().isZero()) {
            return Math.min(
                    cap,
                    1
                            + Duration.between(first.get(), now).toMillis()
                                    / interval.get().toMillis());
        }
        long count = 1;
        for (Optional<Instant> t = schedule.nextAfter(first.get());
                t.isPresent() && !t.get().isAfter(now) && count < cap;
                t = schedule.nextAfter(t.get())) {
            count++;
        }
        return count;
    }

    /**
     * The latest schedule time at or before {@code now}, known to be after {@code floor}: look back from
     * now over a window that doubles until it contains a schedule time, then step through that window.
     */
    private static Instant latestAtOrBefore(CronSchedule schedule, Instant now, Instant floor, Instant known) {
        Optional<Duration> interval = schedule.constantInterval();
        if (interval.isPresent()) {
            // @every: times are known + k * interval; the chain matters, so no searching back from now.
            long steps =
                    Duration.between(known, now).toMillis() / interval.get().toMillis();
            return known.plus(interval.get().multipliedBy(steps));
        }
        Duration window = Duration.ofMinutes(1);
        while (true) {
            Instant probe = now.minus(window);
            if (!probe.isAfter(floor)) {
                probe = floor;
            }
            Optional<Instant> t = schedule.nextAfter(probe);
            if (t.isPresent() && !t.get().isAfter(now)) {
                Instant latest = t.get();
                for (t = schedule.nextAfter(latest);
                        t.isPresent() && !t.get().isAfter(now);
                        t = schedule.nextAfter(latest)) {
                    latest = t.get();
                }
                return latest;
            }
            if (probe.equals(floor)) {
                return known; // unreachable when a time is known to lie in (floor, now]
            }
            window = window.multipliedBy(2);
        }
    }

    /**
     * Kubernetes' {@code nextScheduleTimeDuration}: how long until the sync after the next schedule
     * time (plus {@link #NEXT_SCHEDULE_DELTA}); empty if the schedule never fires again.
     */
    public static Optional<Duration> untilNextSchedule(
            CronSchedule schedule, Instant creation, Instant lastScheduleTime, Instant now) {
        Instant base;
        try {
            Recent recent = mostRecent(schedule, creation, lastScheduleTime, null, now, false);
            base = recent.mostRecent() != null ? recent.mostRecent() : recent.earliest();
        } catch (InvalidScheduleException e) {
            base = now;
        }
        return schedule.nextAfter(base).map(next -> Duration.between(now, next).plus(NEXT_SCHEDULE_DELTA));
    }
}
