package io.kplane.api.batch;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * batch/v1 CronJob.
 */
@RecordBuilder
public record CronJob(String apiVersion, String kind, ObjectMeta metadata, CronJobSpec spec, CronJobStatus status)
        implements CronJobBuilder.With, KubeObject {
    public static final String API_VERSION = "batch/v1";
    public static final String KIND = "CronJob";
    /** Annotation on Jobs a CronJob creates: the scheduled time in RFC 3339. */
    public static final String SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp";

    public CronJob {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public CronJob withMetadata(ObjectMeta metadata) {
        return CronJobBuilder.With.super.withMetadata(metadata);
    }
}
