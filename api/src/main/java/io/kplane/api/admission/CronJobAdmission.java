package io.kplane.api.admission;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpec;
import io.kplane.api.batch.CronSchedule;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobTemplateSpec;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/** CronJobs: {@code SetDefaults_CronJob}, schedule and time zone checks, job template checks. */
public final class CronJobAdmission extends TypedAdmission<CronJob> {
    /** The controller appends {@code -<11 digits>} to Job names, which may have 63 characters. */
    static final int MAX_NAME_LENGTH = 52;

    static final List<String> CONCURRENCY_POLICIES = List.of("Allow", "Forbid", "Replace");
    private static final Pattern TIME_ZONE_PART = Pattern.compile("^[A-Za-z.\\-_0-9+]{1,14}$");

    public CronJobAdmission() {
        super(CronJob.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    CronJob applyDefaults(CronJob cronJob) {
        CronJobSpec s = cronJob.spec() == null ? CronJobSpecBuilderHolder.empty() : cronJob.spec();
        s = s.withConcurrencyPolicy(
                        s.concurrencyPolicy() == null || s.concurrencyPolicy().isEmpty()
                                ? CronJobSpec.ALLOW
                                : s.concurrencyPolicy())
                .withSuspend(s.suspend() == null ? Boolean.FALSE : s.suspend())
                .withSuccessfulJobsHistoryLimit(
                        s.successfulJobsHistoryLimit() == null ? Integer.valueOf(3) : s.successfulJobsHistoryLimit())
                .withFailedJobsHistoryLimit(
                        s.failedJobsHistoryLimit() == null ? Integer.valueOf(1) : s.failedJobsHistoryLimit());
        JobTemplateSpec jt = s.jobTemplate() == null ? new JobTemplateSpec(null, null) : s.jobTemplate();
        JobSpec js = jt.spec() == null ? JobSpecBuilder.builder().build() : jt.spec();
        // Only pod defaults apply inside the template; Job defaults are applied when the Job is created.
        s = s.withJobTemplate(jt.withSpec(js.withTemplate(PodDefaults.template(js.template()))));
        return cronJob.withSpec(s);
    }

    @Override
    CronJob prepareForCreate(CronJob cronJob) {
        return cronJob.withMetadata(cronJob.metadata().withGeneration(1L)).withStatus(null);
    }

    @Override
    void validateSpec(CronJob cronJob, FieldErrors errs) {
        if (cronJob.name() != null && cronJob.name().length() > MAX_NAME_LENGTH) {
            errs.add(FieldError.invalid(
                    "metadata.name", cronJob.name(), "must be no more than " + MAX_NAME_LENGTH + " characters"));
        }
        spec(cronJob.spec(), null, errs);
    }

    @Override
    void validateSpecUpdate(CronJob newCronJob, CronJob oldCronJob, FieldErrors errs) {
        // No name length check on update: older CronJobs with long names must stay editable and deletable.
        spec(newCronJob.spec(), oldCronJob.spec(), errs);
    }

    private static void spec(CronJobSpec spec, CronJobSpec oldSpec, FieldErrors errs) {
        String path = "spec";
        if (spec == null) {
            errs.add(FieldError.required(path + ".schedule", ""));
            return;
        }
        if (spec.schedule() == null || spec.schedule().isEmpty()) {
            errs.add(FieldError.required(path + ".schedule", ""));
        } else {
            boolean allowTzInSchedule = oldSpec != null
                    && oldSpec.schedule() != null
                    && oldSpec.schedule().contains("TZ");
            schedule(spec.schedule(), allowTzInSchedule, spec.timeZone(), path + ".schedule", errs);
        }
        errs.nonNegative(path + ".startingDeadlineSeconds", spec.startingDeadlineSeconds());
        if (oldSpec == null || !Objects.equals(oldSpec.timeZone(), spec.timeZone())) {
            timeZone(spec.timeZone(), path + ".timeZone", errs);
        }
        errs.oneOf(path + ".concurrencyPolicy", spec.concurrencyPolicy(), CONCURRENCY_POLICIES);
        jobTemplate(spec.jobTemplate(), path + ".jobTemplate", errs);
        errs.nonNegative(path + ".successfulJobsHistoryLimit", spec.successfulJobsHistoryLimit());
        errs.nonNegative(path + ".failedJobsHistoryLimit", spec.failedJobsHistoryLimit());
    }

    private static void schedule(String schedule, boolean allowTz, String timeZone, String path, FieldErrors errs) {
        boolean hasTz = schedule.contains("TZ");
        String withoutTz = schedule;
        if (hasTz && allowTz) {
            // Old objects may keep a TZ= prefix; parse what follows it.
            int space = schedule.indexOf(' ');
            withoutTz = space < 0 ? "" : schedule.substring(space + 1);
        }
        if (!hasTz || allowTz) {
            try {
                CronSchedule.parse(withoutTz, null);
            } catch (IllegalArgumentException e) {
                errs.add(FieldError.invalid(path, schedule, e.getMessage()));
            }
        } else if (!(schedule.startsWith("TZ=") || schedule.startsWith("CRON_TZ="))) {
            try {
                CronSchedule.parse(schedule, null);
            } catch (IllegalArgumentException e) {
                errs.add(FieldError.invalid(path, schedule, e.getMessage()));
            }
        }
        if (allowTz && hasTz && timeZone != null) {
            errs.add(
                    FieldError.invalid(path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
        } else if (!allowTz && hasTz) {
            errs.add(FieldError.invalid(
                    path, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
        }
    }

    private static void timeZone(String timeZone, String path, FieldErrors errs) {
        if (timeZone == null) {
            return;
        }
        if (timeZone.isEmpty()) {
            errs.add(FieldError.invalid(path, timeZone, "timeZone must be nil or non-empty string"));
            return;
        }
        for (String part : timeZone.split("/", -1)) {
            if (part.equals(".")
                    || part.equals("..")
                    || part.startsWith("-")
                    || !TIME_ZONE_PART.matcher(part).matches()) {
                errs.add(FieldError.invalid(path, timeZone, "unknown time zone " + timeZone));
                return;
            }
        }
        if (timeZone.equalsIgnoreCase("Local")) {
            errs.add(FieldError.invalid(
                    path,
                    timeZone,
                    "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
            return;
        }
        try {
            CronSchedule.zone(timeZone);
        } catch (IllegalArgumentException e) {
            errs.add(FieldError.invalid(path, timeZone, e.getMessage()));
        }
    }

    /** {@code ValidateJobTemplateSpec}: Job spec checks, but the selector is always generated later. */
    private static void jobTemplate(JobTemplateSpec template, String path, FieldErrors errs) {
        JobSpec spec = template == null ? null : template.spec();
        JobValidation.spec(spec, path + ".spec", errs);
        if (spec == null) {
            return;
        }
        if (spec.selector() != null) {
            errs.add(FieldError.invalid(path + ".spec.selector", spec.selector(), "`selector` will be auto-generated"));
        }
        if (Boolean.TRUE.equals(spec.manualSelector())) {
            errs.add(FieldError.notSupported(path + ".spec.manualSelector", true, List.of("nil", "false")));
        }
        if (template.metadata() != null) {
            MetadataValidation.labels(template.metadata().labels(), path + ".metadata.labels", errs);
            MetadataValidation.annotations(template.metadata().annotations(), path + ".metadata.annotations", errs);
        }
    }

    /** Holder so the empty spec is built in one place. */
    private static final class CronJobSpecBuilderHolder {
        static CronJobSpec empty() {
            return io.kplane.api.batch.CronJobSpecBuilder.builder().build();
        }
    }
}
