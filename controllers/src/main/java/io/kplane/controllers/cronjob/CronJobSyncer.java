package io.kplane.controllers.cronjob;

import static io.kplane.api.core.EventType.NORMAL;
import static io.kplane.api.core.EventType.WARNING;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpec;
import io.kplane.api.batch.CronJobStatus;
import io.kplane.api.batch.CronSchedule;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.core.ObjectReference;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconciliation of a CronJob against the Jobs it owns: Kubernetes' {@code sync},
 * {@code cleanupFinishedJobs} and {@code syncCronJob} (cronjob_controllerv2.go, v1.30).
 * It reads the CronJob and its Jobs from the informer caches, writes through {@link JobControl},
 * and says when to look again: right after the next schedule time.
 */
public final class CronJobSyncer {
    private static final Logger log = LoggerFactory.getLogger(CronJobSyncer.class);
    /** Go's time.RFC1123Z, used in the MissSchedule message. */
    private static final DateTimeFormatter RFC1123Z =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH);

    private final JobControl control;
    private final EventRecorder events;
    private final Clock clock;

    public CronJobSyncer(JobControl control, EventRecorder events, Clock clock) {
        this.control = control;
        this.events = events;
        this.clock = clock;
    }

    /**
     * @param requeueAfter when to sync again, or null to wait for the next change
     * @param created      the Job created by this sync, if any (for metrics and tests)
     * @param scheduledTime the schedule time {@code created} runs for
     * @param createdAt    when the create call returned, on the controller's clock
     */
    public record Outcome(Duration requeueAfter, Job created, Instant scheduledTime, Instant createdAt) {}

    /** Reconciles {@code cronJob}; {@code jobs} are the cached Jobs whose controller is this CronJob. */
    public Outcome sync(CronJob cronJob, List<Job> jobs) throws Exception {
        Draft draft = new Draft(cronJob);
        boolean updateAfterCleanup = cleanupFinishedJobs(draft, jobs);
        SyncResult result;
        Exception syncError = null;
        try {
            result = syncCronJob(draft, jobs);
        } catch (Exception e) {
            syncError = e;
            result = new SyncResult(null);
        }
        if (updateAfterCleanup || draft.changed) {
            control.updateStatus(draft.toCronJob());
        }
        if (syncError != null) {
            throw syncError;
        }
        return new Outcome(result.requeueAfter, result.created, result.scheduledTime, result.createdAt);
    }

    private record SyncResult(Duration requeueAfter, Job created, Instant scheduledTime, Instant createdAt) {
        SyncResult(Duration requeueAfter) {
            this(requeueAfter, null, null, null);
        }
    }

    private static SyncResult requeue(Optional<Duration> after) {
        return new SyncResult(after.orElse(null));
    }

    // --- syncCronJob -------------------------------------------------------------------------

    private SyncResult syncCronJob(Draft cj, List<Job> jobs) throws Exception {
        Instant now = clock.now();
        Set<String> children = new HashSet<>();
        for (Job job : jobs) {
            children.add(job.uid());
            boolean found = cj.isActive(job.uid());
            Optional<String> finished = JobsFromCronJob.finishedCondition(job);
            if (!found && finished.isEmpty()) {
                // Maybe we created it and our status write is newer than the cache: ask the server.
                Optional<CronJob> live = control.getCronJob(cj.namespace(), cj.name());
                if (live.isPresent()
                        && live.get().status() != null
                        && live.get().status().activeOrEmpty().stream()
                                .anyMatch(r -> Objects.equals(r.uid(), job.uid()))) {
                    cj.adoptActive(live.get().status().activeOrEmpty());
                    continue;
                }
                events.event(
                        cj.original,
                        WARNING,
                        "UnexpectedJob",
                        "Saw a job that the controller did not create or forgot: " + job.name());
            } else if (finished.isPresent()) {
                if (found) {
                    cj.removeActive(job.uid());
                    events.event(
                            cj.original,
                            NORMAL,
                            "SawCompletedJob",
                            "Saw completed job: " + job.name() + ", condition: " + finished.get());
                }
                if (JobsFromCronJob.isSucceeded(job)) {
                    Instant completion = job.status().completionTime();
                    if (completion != null
                            && (cj.lastSuccessfulTime == null || completion.isAfter(cj.lastSuccessfulTime))) {
                        cj.lastSuccessfulTime = completion;
                        cj.changed = true;
                    }
                }
            }
        }

        // Active references whose Job is gone would keep a Forbid CronJob stuck forever.
        for (ObjectReference ref : List.copyOf(cj.active)) {
            if (children.contains(ref.uid())) {
                continue;
            }
            if (control.getJob(ref.namespace() == null ? cj.namespace() : ref.namespace(), ref.name())
                    .isEmpty()) {
                events.event(cj.original, NORMAL, "MissingJob", "Active job went missing: " + ref.name());
                cj.removeActive(ref.uid());
            }
        }

        CronJob cronJob = cj.original;
        CronJobSyncReport report = CronJobSyncReport.current();
        report.saw(cronJob, now, cj.lastScheduleTime, cj.active);
        if (cronJob.metadata().isBeingDeleted()) {
            report.deleting();
            return new SyncResult(null);
        }
        CronJobSpec spec = cronJob.spec();
        if (spec.timeZone() != null) {
            try {
                ZoneId.of(spec.timeZone());
            } catch (RuntimeException e) {
                events.event(
                        cronJob,
                        WARNING,
                        "UnknownTimeZone",
                        "invalid timeZone: \"" + spec.timeZone() + "\": unknown time zone " + spec.timeZone());
                report.invalid("UnknownTimeZone: " + spec.timeZone());
                return new SyncResult(null);
            }
        }
        if (spec.isSuspended()) {
            log.debug("cronjob {} is suspended", cronJob.key());
            report.suspended();
            return new SyncResult(null);
        }

        CronSchedule schedule;
        try {
            schedule = parseSchedule(cronJob, true);
        } catch (IllegalArgumentException e) {
            events.event(
                    cronJob,
                    WARNING,
                    "UnparseableSchedule",
                    "unparseable schedule: \"" + spec.schedule() + "\" : " + e.getMessage());
            report.invalid("UnparseableSchedule: " + e.getMessage());
            return new SyncResult(null);
        }

        Instant created = cronJob.metadata().creationTimestamp();
        ScheduleMath.Recent recent;
        try {
            recent = ScheduleMath.mostRecent(
                    schedule, created, cj.lastScheduleTime, spec.startingDeadlineSeconds(), now, true);
        } catch (ScheduleMath.InvalidScheduleException e) {
            events.event(
                    cronJob,
                    WARNING,
                    "InvalidSchedule",
                    "invalid schedule: " + spec.schedule() + " : " + e.getMessage());
            report.invalid("InvalidSchedule: " + e.getMessage());
            return new SyncResult(null);
        }
        if (recent.missed() == ScheduleMath.Missed.MANY) {
            events.event(
                    cronJob,
                    WARNING,
                    "TooManyMissedTimes",
                    "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew");
            log.info("cronjob {}: too many missed times", cronJob.key());
        }
        report.missed(schedule, recent, now);
        Instant scheduledTime = recent.mostRecent();
        if (scheduledTime == null) {
            if (!reportMissedBeyondDeadline(cj, schedule, now, report)) {
                report.nothingDue(recent.earliest());
            }
            return requeue(
                    report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now));
        }
        if (spec.startingDeadlineSeconds() != null
                && scheduledTime.plusSeconds(spec.startingDeadlineSeconds()).isBefore(now)) {
            missSchedule(cronJob, scheduledTime);
            report.missedDeadline(scheduledTime, spec.startingDeadlineSeconds(), now);
            return requeue(
                    report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now));
        }
        String jobName = JobsFromCronJob.jobName(cronJob, scheduledTime);
        if (cj.isActiveByName(jobName) || scheduledTime.equals(cj.lastScheduleTime)) {
            report.alreadyDone(jobName, scheduledTime);
            return requeue(
                    report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now));
        }
        if (CronJobSpec.FORBID.equals(spec.concurrencyPolicy()) && !cj.active.isEmpty()) {
            events.event(
                    cronJob,
                    NORMAL,
                    "JobAlreadyActive",
                    "Not starting job because prior execution is running and concurrency policy is Forbid");
            report.skippedForbid(scheduledTime, recent, cj.active);
            return requeue(
                    report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now));
        }
        List<String> replaced = new ArrayList<>();
        if (CronJobSpec.REPLACE.equals(spec.concurrencyPolicy())) {
            for (ObjectReference ref : List.copyOf(cj.active)) {
                String ns = ref.namespace() == null ? cj.namespace() : ref.namespace();
                Optional<Job> job;
                try {
                    job = control.getJob(ns, ref.name());
                } catch (Exception e) {
                    events.event(cronJob, WARNING, "FailedGet", "Get job: " + e.getMessage());
                    throw e;
                }
                if (job.isEmpty()) {
                    events.event(cronJob, WARNING, "FailedGet", "Get job: jobs.batch \"" + ref.name() + "\" not found");
                    throw new IllegalStateException("could not replace job " + ns + "/" + ref.name() + ": not found");
                }
                if (!deleteJob(cj, job.get())) {
                    throw new IllegalStateException("could not replace job " + ns + "/" + ref.name());
                }
                replaced.add(ref.name());
            }
        }

        Job request = JobsFromCronJob.jobFor(cronJob, scheduledTime);
        Job createdJob;
        Instant createdAt = null;
        boolean alreadyExisted = false;
        try {
            createdJob = control.createJob(request);
            createdAt = clock.now();
        } catch (JobControl.AlreadyExistsException e) {
            // The name is a lock on the scheduled time: this run was created before, maybe by us just
            // before a crash and before the status write. Make sure it is in the active list.
            alreadyExisted = true;
            Optional<Job> existing = control.getJob(cj.namespace(), jobName);
            if (existing.isEmpty()) {
                throw new IllegalStateException("job " + jobName + " already exists but cannot be read");
            }
            createdJob = existing.get();
            boolean ours = createdJob.metadata().ownerReferencesOrEmpty().stream()
                    .anyMatch(r -> Boolean.TRUE.equals(r.controller()) && Objects.equals(r.uid(), cronJob.uid()));
            if (!ours || cj.isActive(createdJob.uid())) {
                report.alreadyDone(jobName, scheduledTime);
                return requeue(
                        report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now));
            }
        } catch (Exception e) {
            events.event(cronJob, WARNING, "FailedCreate", "Error creating job: " + e.getMessage());
            throw e;
        }
        if (alreadyExisted) {
            log.info("cronjob {}: job {} already exists", cronJob.key(), jobName);
            report.adopted(jobName, scheduledTime);
        } else {
            log.info("cronjob {}: created job {} for {}", cronJob.key(), createdJob.name(), scheduledTime);
            events.event(cronJob, NORMAL, "SuccessfulCreate", "Created job " + createdJob.name());
            report.created(createdJob.name(), scheduledTime, recent, replaced);
        }
        cj.addActive(ObjectReference.to(createdJob));
        cj.lastScheduleTime = scheduledTime;
        cj.changed = true;
        Optional<Duration> next =
                report.next(ScheduleMath.untilNextSchedule(schedule, created, cj.lastScheduleTime, now), now);
        return alreadyExisted
                ? new SyncResult(next.orElse(null))
                : new SyncResult(next.orElse(null), createdJob, scheduledTime, createdAt);
    }

    /**
     * Upstream v1.30 moves the search window up to {@code now - startingDeadlineSeconds}, which makes
     * its MissSchedule branch unreachable; we still tell the user when a run was skipped because it
     * is past its deadline, once per sync while it is the latest unmet time.
     */
    private boolean reportMissedBeyondDeadline(Draft cj, CronSchedule schedule, Instant now, CronJobSyncReport report) {
        Long deadline = cj.original.spec().startingDeadlineSeconds();
        if (deadline == null) {
            return false;
        }
        try {
            ScheduleMath.Recent unbounded = ScheduleMath.mostRecent(
                    schedule, cj.original.metadata().creationTimestamp(), cj.lastScheduleTime, null, now, false);
            if (unbounded.mostRecent() != null) {
                missSchedule(cj.original, unbounded.mostRecent());
                report.missedDeadline(unbounded.mostRecent(), deadline, now);
                return true;
            }
        } catch (ScheduleMath.InvalidScheduleException e) {
            // reported by the main path
        }
        return false;
    }

    private void missSchedule(CronJob cronJob, Instant scheduledTime) {
        log.info("cronjob {}: missed starting window for {}", cronJob.key(), scheduledTime);
        events.event(
                cronJob,
                WARNING,
                "MissSchedule",
                "Missed scheduled time to start a job: " + RFC1123Z.format(scheduledTime.atZone(ZoneOffset.UTC)));
    }

    /**
     * Kubernetes' {@code formatSchedule}: a {@code TZ=}/{@code CRON_TZ=} prefix is honoured (with an
     * UnsupportedSchedule warning) and overrides spec.timeZone.
     */
    CronSchedule parseSchedule(CronJob cronJob, boolean warn) {
        String schedule = cronJob.spec().schedule();
        if (schedule != null && schedule.contains("TZ")) {
            if (warn) {
                events.event(
                        cronJob,
                        WARNING,
                        "UnsupportedSchedule",
                        "CRON_TZ or TZ used in schedule \"" + schedule
                                + "\" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details");
            }
            String trimmed = schedule.trim();
            int space = trimmed.indexOf(' ');
            if ((trimmed.startsWith("TZ=") || trimmed.startsWith("CRON_TZ=")) && space > 0) {
                String zone = trimmed.substring(trimmed.indexOf('=') + 1, space);
                // "TZ= ..." means UTC, as Go's time.LoadLocation("") does.
                return CronSchedule.parse(trimmed.substring(space + 1), zone.isEmpty() ? null : zone);
            }
        }
        return CronSchedule.parse(schedule, cronJob.spec().timeZone());
    }

    // --- cleanupFinishedJobs -----------------------------------------------------------------

    private boolean cleanupFinishedJobs(Draft cj, List<Job> jobs) {
        CronJobSpec spec = cj.original.spec();
        if (spec.successfulJobsHistoryLimit() == null && spec.failedJobsHistoryLimit() == null) {
            return false;
        }
        List<Job> succeeded = new ArrayList<>();
        List<Job> failed = new ArrayList<>();
        for (Job job : jobs) {
            JobsFromCronJob.finishedCondition(job)
                    .ifPresent(c -> (JobCondition.COMPLETE.equals(c) ? succeeded : failed).add(job));
        }
        boolean update = false;
        if (spec.successfulJobsHistoryLimit() != null
                && removeOldestJobs(cj, succeeded, spec.successfulJobsHistoryLimit())) {
            update = true;
        }
        if (spec.failedJobsHistoryLimit() != null && removeOldestJobs(cj, failed, spec.failedJobsHistoryLimit())) {
            update = true;
        }
        return update;
    }

    private boolean removeOldestJobs(Draft cj, List<Job> jobs, int keep) {
        int toDelete = jobs.size() - keep;
        if (toDelete <= 0) {
            return false;
        }
        List<Job> sorted = new ArrayList<>(jobs);
        sorted.sort(JobsFromCronJob.BY_START_TIME);
        boolean update = false;
        for (int i = 0; i < toDelete; i++) {
            update |= deleteJob(cj, sorted.get(i));
        }
        return update;
    }

    /** Kubernetes' {@code deleteJob}: the Job, then its reference in the active list. */
    private boolean deleteJob(Draft cj, Job job) {
        boolean deletedNow;
        try {
            deletedNow = control.deleteJob(job.namespace(), job.name());
        } catch (Exception e) {
            events.event(cj.original, WARNING, "FailedDelete", "Deleted job: " + e.getMessage());
            log.warn("cronjob {}: error deleting job {}: {}", cj.original.key(), job.name(), e.toString());
            return false;
        }
        cj.removeActive(job.uid());
        if (deletedNow) {
            events.event(cj.original, NORMAL, "SuccessfulDelete", "Deleted job " + job.name());
        }
        return true;
    }

    /** The status being computed: Kubernetes works on a deep copy and writes it once. */
    private static final class Draft {
        final CronJob original;
        final List<ObjectReference> active;
        Instant lastScheduleTime;
        Instant lastSuccessfulTime;
        boolean changed;

        Draft(CronJob cronJob) {
            this.original = cronJob;
            CronJobStatus status = cronJob.status();
            this.active = status == null ? new ArrayList<>() : new ArrayList<>(status.activeOrEmpty());
            this.lastScheduleTime = status == null ? null : status.lastScheduleTime();
            this.lastSuccessfulTime = status == null ? null : status.lastSuccessfulTime();
        }

        String name() {
            return original.name();
        }

        String namespace() {
            return original.namespace();
        }

        boolean isActive(String uid) {
            return active.stream().anyMatch(r -> Objects.equals(r.uid(), uid));
        }

        boolean isActiveByName(String jobName) {
            return active.stream().anyMatch(r -> jobName.equals(r.name()));
        }

        void removeActive(String uid) {
            if (active.removeIf(r -> Objects.equals(r.uid(), uid))) {
                changed = true;
            }
        }

        void addActive(ObjectReference ref) {
            active.add(ref);
            changed = true;
        }

        void adoptActive(List<ObjectReference> live) {
            active.clear();
            active.addAll(live);
        }

        CronJob toCronJob() {
            return original.withStatus(new CronJobStatus(
                    active.isEmpty() ? null : List.copyOf(active), lastScheduleTime, lastSuccessfulTime));
        }
    }
}
