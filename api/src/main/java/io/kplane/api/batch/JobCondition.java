package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;

/**
 * A Job condition: Suspended, Complete, Failed, FailureTarget or SuccessCriteriaMet.
 */
@RecordBuilder
public record JobCondition(
        String type, String status, Instant lastProbeTime, Instant lastTransitionTime, String reason, String message)
        implements JobConditionBuilder.With {
    public static final String SUSPENDED = "Suspended";
    public static final String COMPLETE = "Complete";
    public static final String FAILED = "Failed";
    public static final String FAILURE_TARGET = "FailureTarget";
    public static final String SUCCESS_CRITERIA_MET = "SuccessCriteriaMet";

    public boolean isTrue() {
        return "True".equals(status);
    }
}
