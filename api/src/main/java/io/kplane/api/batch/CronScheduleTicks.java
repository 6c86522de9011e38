package io.kplane.api.batch;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A CronJob's schedule times as a list: the next N after an instant ({@code kubectl-lite cronjob next})
 * and the ones in a past window (the {@code /ui} CronJob timeline). One implementation so the CLI and
 * the UI show the same times, with the Job name each run gets ({@code <cronjob>-<minutes since epoch>},
 * as upstream's {@code getJobName}).
 */
public final class CronScheduleTicks {
    /** The wall time in the schedule's zone with its offset, e.g. {@code 2026-10-25 02:30:00 +02:00}. */
    public static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx");

    /** One schedule time: the instant, the wall time in the schedule's zone, and the Job name. */
    public record Tick(Instant time, String local, String jobName) {}

    private CronScheduleTicks() {}

    /** The first {@code count} schedule times strictly after {@code after}. */
    public static List<Tick> next(CronSchedule schedule, String cronJobName, Instant after, int count) {
        List<Tick> out = new ArrayList<>();
        Instant t = after;
        for (int i = 0; i < count; i++) {
            Optional<Instant> next = schedule.nextAfter(t);
            if (next.isEmpty()) {
                break;
            }
            t = next.get();
            out.add(tick(schedule, cronJobName, t));
        }
        return out;
    }

    /**
     * The schedule times in {@code (from, to]}, at most the last {@code max} of them (a window over a
     * per-minute schedule can hold many; the latest are the interesting ones).
     */
    public static List<Tick> between(CronSchedule schedule, String cronJobName, Instant from, Instant to, int max) {
        List<Tick> out = new ArrayList<>();
        if (max <= 0 || !to.isAfter(from)) {
            return out;
        }
        Instant t = from;
        // Walk forward; keep a sliding window of the last `max`. Bounded by a hard step limit so a
        // huge window over a per-second @every schedule cannot run away.
        for (int steps = 0; steps < 1_000_000; steps++) {
            Optional<Instant> next = schedule.nextAfter(t);
            if (next.isEmpty() || next.get().isAfter(to)) {
                break;
            }
            t = next.get();
            out.add(tick(schedule, cronJobName, t));
            if (out.size() > max) {
                out.remove(0);
            }
        }
        return out;
    }

    public static Tick tick(CronSchedule schedule, String cronJobName, Instant time) {
        return new Tick(
                time, LOCAL.format(time.atZone(schedule.zone())), cronJobName + "-" + time.getEpochSecond() / 60);
    }
}
