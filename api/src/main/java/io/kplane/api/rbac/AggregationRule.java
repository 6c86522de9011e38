package io.kplane.api.rbac;

import io.kplane.api.meta.LabelSelector;
import java.util.List;

/** rbac/v1 AggregationRule. Stored as given; kplane runs no aggregation controller. */
public record AggregationRule(List<LabelSelector> clusterRoleSelectors) {}
