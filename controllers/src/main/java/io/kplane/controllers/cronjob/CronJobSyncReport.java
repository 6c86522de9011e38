package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpec;
import io.kplane.api.batch.CronSchedule;
import io.kplane.api.core.ObjectReference;
import io.kplane.api.json.Json;
import io.kplane.client.lens.SyncScope;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What one CronJob sync saw and decided, for the lens's sync record (docs/lens.md, "CronJob sync
 * records"). The decisions are one word each, in the words upstream's controller logs and events use:
 * {@code created} (a Job for a scheduled time), {@code replaced} (Replace deleted the running Jobs and
 * created one), {@code skipped} ({@code JobAlreadyActive} under Forbid), {@code missed} (past
 * {@code startingDeadlineSeconds}), {@code suspended}, {@code nothing_due} (no schedule time since the
 * last one, or its Job exists already), {@code invalid} (time zone or schedule), {@code deleting},
 * {@code deleted}. {@code TooManyMissedTimes} and earlier missed times are in the reason and in
 * {@code saw.missedSchedules}. The timeline of the {@code /ui} reads exactly these fields:
 * {@code saw.scheduledTime}, {@code saw.job}, {@code saw.nextScheduleTime}.
 *
 * <p>All calls are no-ops when the lens is off ({@link SyncScope#NOOP}), and nothing is computed for
 * it then: every method first checks {@link SyncScope#enabled()}.
 */
final class CronJobSyncReport {
    /** Counting missed times stops here: a jump of years over a per-minute schedule is "more than". */
    static final long MISSED_COUNT_CAP = 100_000;

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx");
    private static final int ACTIVE_NAMES_SHOWN = 5;

    private final SyncScope lens;
    /** How many schedule times this sync found passed (as reported in saw.missedSchedules), or null. */
    private Object missedCount;

    private CronJobSyncReport(SyncScope lens) {
        this.lens = lens;
    }

    /** The report of the sync running on this thread. */
    static CronJobSyncReport current() {
        return new CronJobSyncReport(SyncScope.current());
    }

    boolean enabled() {
        return lens.enabled();
    }

    /** What every sync looked at: the clock, the schedule and the status it started from. */
    void saw(CronJob cronJob, Instant now, Instant lastScheduleTime, List<ObjectReference> active) {
        if (!lens.enabled()) {
            return;
        }
        CronJobSpec spec = cronJob.spec();
        lens.resource("cronjobs").object(cronJob.uid(), cronJob.metadata().resourceVersion());
        String zone = spec.timeZone() == null ? "UTC" : spec.timeZone();
        lens.saw("now", Json.formatTime(now));
        try {
            lens.saw("nowLocal", LOCAL.format(now.atZone(ZoneId.of(zone))) + " " + zone);
        } catch (RuntimeException e) {
            lens.saw("nowLocal", "unknown time zone " + zone);
        }
        lens.saw("schedule", spec.schedule())
                .saw("timeZone", zone)
                .saw(
                        "concurrencyPolicy",
                        spec.concurrencyPolicy() == null ? CronJobSpec.ALLOW : spec.concurrencyPolicy())
                .saw("suspend", spec.isSuspended())
                .saw(
                        "startingDeadlineSeconds",
                        spec.startingDeadlineSeconds() == null ? "none" : spec.startingDeadlineSeconds())
                .saw("lastScheduleTime", lastScheduleTime == null ? "none" : Json.formatTime(lastScheduleTime))
                .saw("active", active.size());
        if (!active.isEmpty()) {
            lens.saw("activeJobs", names(active));
        }
    }

    /** The schedule times passed since the last one (more than one: all but the latest are skipped, as upstream). */
    void missed(CronSchedule schedule, ScheduleMath.Recent recent, Instant now) {
        if (!lens.enabled() || recent.missed() == ScheduleMath.Missed.NONE) {
            return;
        }
        long count = ScheduleMath.countTimes(schedule, recent.earliest(), now, MISSED_COUNT_CAP);
        missedCount = count >= MISSED_COUNT_CAP ? "more than " + MISSED_COUNT_CAP : count;
        lens.saw("missedSchedules", missedCount);
    }

    void created(String jobName, Instant scheduledTime, ScheduleMath.Recent recent, List<String> replaced) {
        if (!lens.enabled()) {
            return;
        }
        lens.saw("scheduledTime", Json.formatTime(scheduledTime)).saw("job", jobName);
        String reason = "created Job " + jobName + " for the scheduled time " + Json.formatTime(scheduledTime);
        if (!replaced.isEmpty()) {
            reason = "concurrencyPolicy Replace: deleted the running Job(s) " + String.join(", ", replaced) + "; "
                    + reason;
        }
        lens.decided(replaced.isEmpty() ? "created" : "replaced", missedPrefix(recent) + reason);
    }

    void adopted(String jobName, Instant scheduledTime) {
        if (!lens.enabled()) {
            return;
        }
        lens.saw("scheduledTime", Json.formatTime(scheduledTime)).saw("job", jobName);
        lens.decided(
                "created",
                "Job " + jobName + " for the scheduled time " + Json.formatTime(scheduledTime)
                        + " already existed (created before its status was written): added to the active list");
    }

    void skippedForbid(Instant scheduledTime, ScheduleMath.Recent recent, List<ObjectReference> active) {
        if (!lens.enabled()) {
            return;
        }
        lens.saw("scheduledTime", Json.formatTime(scheduledTime));
        lens.decided(
                "skipped",
                missedPrefix(recent) + "JobAlreadyActive: concurrencyPolicy Forbid and Job(s) " + names(active)
                        + " still running: no Job for the scheduled time " + Json.formatTime(scheduledTime));
    }

    void missedDeadline(Instant scheduledTime, Long startingDeadlineSeconds, Instant now) {
        if (!lens.enabled()) {
            return;
        }
        lens.saw("scheduledTime", Json.formatTime(scheduledTime));
        lens.decided(
                "missed",
                "missed start deadline: the scheduled time " + Json.formatTime(scheduledTime)
                        + " + startingDeadlineSeconds " + startingDeadlineSeconds + " s is before now "
                        + Json.formatTime(now)
                        + " (MissSchedule)");
    }

    void alreadyDone(String jobName, Instant scheduledTime) {
        if (!lens.enabled()) {
            return;
        }
        lens.decided(
                "nothing_due",
                "the Job " + jobName + " for the latest scheduled time " + Json.formatTime(scheduledTime)
                        + " was already created");
    }

    void nothingDue(Instant lastOrCreation) {
        if (lens.enabled()) {
            lens.decided("nothing_due", "no schedule time since " + Json.formatTime(lastOrCreation));
        }
    }

    void suspended() {
        if (lens.enabled()) {
            lens.decided(
                    "suspended",
                    "spec.suspend is true: no Job is created (missed times are not made up later "
                            + "beyond the last one, as upstream)");
        }
    }

    void invalid(String reason) {
        if (lens.enabled()) {
            lens.decided("invalid", reason);
        }
    }

    void deleting() {
        if (lens.enabled()) {
            lens.decided("deleting", "the CronJob is being deleted: nothing is scheduled");
        }
    }

    /** When the next sync is due (the requeue), as a cluster time. */
    Optional<Duration> next(Optional<Duration> requeue, Instant now) {
        if (lens.enabled()) {
            lens.saw(
                    "nextScheduleTime",
                    requeue.map(d -> Json.formatTime(now.plus(d))).orElse("none"));
        }
        return requeue;
    }

    private String missedPrefix(ScheduleMath.Recent recent) {
        return switch (recent.missed()) {
            case MANY -> "TooManyMissedTimes (" + missedCount + " missed, more than " + ScheduleMath.TOO_MANY_MISSED
                    + "; only the most recent runs): ";
            case FEW -> missedCount + " schedule times passed, only the most recent runs: ";
            case NONE -> "";
        };
    }

    private static String names(List<ObjectReference> refs) {
        String shown = refs.stream()
                .limit(ACTIVE_NAMES_SHOWN)
                .map(ObjectReference::name)
                .collect(Collectors.joining(", "));
        return refs.size() > ACTIVE_NAMES_SHOWN
                ? shown + " and " + (refs.size() - ACTIVE_NAMES_SHOWN) + " more"
                : shown;
    }
}
