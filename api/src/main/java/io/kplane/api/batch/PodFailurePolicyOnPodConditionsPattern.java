package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Matches a failed pod by one of its conditions (e.g. DisruptionTarget=True).
 */
@RecordBuilder
public record PodFailurePolicyOnPodConditionsPattern(String type, String status)
        implements PodFailurePolicyOnPodConditionsPatternBuilder.With {}
