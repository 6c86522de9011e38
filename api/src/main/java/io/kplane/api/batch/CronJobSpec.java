package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * batch/v1 CronJobSpec.
 */
@RecordBuilder
public record CronJobSpec(
        String schedule,
        String timeZone,
        Long startingDeadlineSeconds,
        String concurrencyPolicy,
        Boolean suspend,
        JobTemplateSpec jobTemplate,
        Integer successfulJobsHistoryLimit,
        Integer failedJobsHistoryLimit)
        implements CronJobSpecBuilder.With {
    public static final String ALLOW = "Allow";
    public static final String FORBID = "Forbid";
    public static final String REPLACE = "Replace";

    public boolean isSuspended() {
        return Boolean.TRUE.equals(suspend);
    }
}
