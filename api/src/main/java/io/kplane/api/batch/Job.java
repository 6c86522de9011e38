package io.kplane.api.batch;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * batch/v1 Job.
 */
@RecordBuilder
public record Job(String apiVersion, String kind, ObjectMeta metadata, JobSpec spec, JobStatus status)
        implements JobBuilder.With, KubeObject {
    public static final String API_VERSION = "batch/v1";
    public static final String KIND = "Job";
    /** Label the server puts on a Job's pods (and its generated selector) with the Job's uid. */
    public static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";

    public static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    public static final String LEGACY_CONTROLLER_UID_LABEL = "controller-uid";
    public static final String LEGACY_JOB_NAME_LABEL = "job-name";
    public static final String COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
    public static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";

    public Job {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Job withMetadata(ObjectMeta metadata) {
        return JobBuilder.With.super.withMetadata(metadata);
    }

    /** Complete=True or Failed=True: the Job is done and its controller leaves it alone. */
    public boolean isFinished() {
        return status != null
                && (status.hasTrueCondition(JobCondition.COMPLETE) || status.hasTrueCondition(JobCondition.FAILED));
    }
}
