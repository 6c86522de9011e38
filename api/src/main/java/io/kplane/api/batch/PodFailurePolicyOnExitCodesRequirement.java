package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * Matches a failed pod by the exit codes of its containers. operator is In or NotIn.
 */
@RecordBuilder
public record PodFailurePolicyOnExitCodesRequirement(String containerName, String operator, List<Integer> values)
        implements PodFailurePolicyOnExitCodesRequirementBuilder.With {
    public static final String IN = "In";
    public static final String NOT_IN = "NotIn";
}
