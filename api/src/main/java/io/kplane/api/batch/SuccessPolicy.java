package io.kplane.api.batch;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * When an Indexed Job counts as succeeded before all indexes have.
 */
@RecordBuilder
public record SuccessPolicy(List<SuccessPolicyRule> rules) implements SuccessPolicyBuilder.With {}
