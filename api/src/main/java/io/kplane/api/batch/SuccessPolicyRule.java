package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * A success rule of an Indexed Job: succeededIndexes (e.g. {@code 0-2,5}) and/or succeededCount.
 */
@RecordBuilder
public record SuccessPolicyRule(String succeededIndexes, Integer succeededCount)
        implements SuccessPolicyRuleBuilder.With {}
