package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * One rule of a pod failure policy: action FailJob, FailIndex, Ignore or Count.
 */
@RecordBuilder
public record PodFailurePolicyRule(
        String action,
        PodFailurePolicyOnExitCodesRequirement onExitCodes,
        List<PodFailurePolicyOnPodConditionsPattern> onPodConditions)
        implements PodFailurePolicyRuleBuilder.With {
    public static final String FAIL_JOB = "FailJob";
    public static final String FAIL_INDEX = "FailIndex";
    public static final String IGNORE = "Ignore";
    public static final String COUNT = "Count";
}
