package io.kplane.api.batch;

import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.LabelSelector;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * batch/v1 JobSpec.
 */
@RecordBuilder
public record JobSpec(
        Integer parallelism,
        Integer completions,
        Long activeDeadlineSeconds,
        PodFailurePolicy podFailurePolicy,
        SuccessPolicy successPolicy,
        Integer backoffLimit,
        Integer backoffLimitPerIndex,
        Integer maxFailedIndexes,
        LabelSelector selector,
        Boolean manualSelector,
        PodTemplateSpec template,
        Integer ttlSecondsAfterFinished,
        String completionMode,
        Boolean suspend,
        String podReplacementPolicy,
        String managedBy)
        implements JobSpecBuilder.With {
    public static final String NON_INDEXED = "NonIndexed";
    public static final String INDEXED = "Indexed";
    public static final String REPLACE_TERMINATING_OR_FAILED = "TerminatingOrFailed";
    public static final String REPLACE_FAILED = "Failed";
    /** The only managedBy value the built-in Job controller acts on. */
    public static final String MANAGED_BY_JOB_CONTROLLER = "kubernetes.io/job-controller";

    public boolean isIndexed() {
        return INDEXED.equals(completionMode);
    }

    public boolean isSuspended() {
        return Boolean.TRUE.equals(suspend);
    }
}
