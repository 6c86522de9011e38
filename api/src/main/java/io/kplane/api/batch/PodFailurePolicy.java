package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * How failed pods count against a Job: rules are checked in order, the first match wins.
 */
@RecordBuilder
public record PodFailurePolicy(List<PodFailurePolicyRule> rules) implements PodFailurePolicyBuilder.With {
    public List<PodFailurePolicyRule> rulesOrEmpty() {
        return rules == null ? List.of() : rules;
    }
}
