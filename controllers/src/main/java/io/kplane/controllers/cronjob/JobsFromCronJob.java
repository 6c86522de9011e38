package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How a CronJob's Jobs are named, built, classified and ordered (Kubernetes' cronjob utils). */
public final class JobsFromCronJob {
    private JobsFromCronJob() {}

    /**
     * {@code <cronjob>-<scheduled time in minutes since the epoch>}: one name per scheduled time, so a
     * retry or a restarted controller gets AlreadyExists instead of a second run.
     */
    public static String jobName(CronJob cronJob, Instant scheduledTime) {
        return cronJob.name() + "-" + Math.floorDiv(scheduledTime.getEpochSecond(), 60);
    }

    /** Kubernetes' {@code getJobFromTemplate2}. */
    public static Job jobFor(CronJob cronJob, Instant scheduledTime) {
        JobTemplateSpec template = cronJob.spec().jobTemplate();
        ObjectMeta templateMeta = template == null || template.metadata() == null
                ? ObjectMetaBuilder.builder().build()
                : template.metadata();
        Map<String, String> annotations = new LinkedHashMap<>(templateMeta.annotationsOrEmpty());
        annotations.put(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, scheduledTimestamp(cronJob, scheduledTime));
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .name(jobName(cronJob, scheduledTime))
                .namespace(cronJob.namespace())
                .labels(templateMeta.labels() == null ? null : new LinkedHashMap<>(templateMeta.labels()))
                .annotations(annotations)
                .ownerReferences(
                        List.of(OwnerReference.controllerOf(CronJob.API_VERSION, CronJob.KIND, cronJob.metadata())))
                .build();
        return new Job(Job.API_VERSION, Job.KIND, meta, template == null ? null : template.spec(), null);
    }

    /** The scheduled time in RFC 3339, written in the CronJob's time zone (UTC when none is set). */
    static String scheduledTimestamp(CronJob cronJob, Instant scheduledTime) {
        String tz = cronJob.spec().timeZone();
        ZoneId zone = tz == null || tz.isEmpty() ? ZoneOffset.UTC : ZoneId.of(tz);
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                scheduledTime.truncatedTo(ChronoUnit.SECONDS).atZone(zone).toOffsetDateTime());
    }

    /** Complete or Failed, whichever is True; empty while the Job runs. */
    public static Optional<String> finishedCondition(Job job) {
        if (job.status() == null) {
            return Optional.empty();
        }
        for (JobCondition c : job.status().conditionsOrEmpty()) {
            if ((JobCondition.COMPLETE.equals(c.type()) || JobCondition.FAILED.equals(c.type())) && c.isTrue()) {
                return Optional.of(c.type());
            }
        }
        return Optional.empty();
    }

    public static boolean isFinished(Job job) {
        return finishedCondition(job).isPresent();
    }

    public static boolean isSucceeded(Job job) {
        return finishedCondition(job).filter(JobCondition.COMPLETE::equals).isPresent();
    }

    /** Kubernetes' {@code byJobStartTime}: started Jobs oldest first, unstarted last, ties by name. */
    public static final Comparator<Job> BY_START_TIME = Comparator.comparing(
                    (Job j) -> j.status() == null ? null : j.status().startTime(),
                    Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(Job::name);

    /** The controller reference of {@code job} if it points at a CronJob named {@code cronJobName}. */
    public static boolean isControlledByName(Job job, String cronJobName) {
        OwnerReference ref = job.metadata() == null ? null : job.metadata().controllerRef();
        return ref != null && CronJob.KIND.equals(ref.kind()) && cronJobName.equals(ref.name());
    }
}
