package io.kplane.api.rbac;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * rbac.authorization.k8s.io/v1 ClusterRole: stored and validated, not enforced.
 */
@RecordBuilder
public record ClusterRole(
        String apiVersion, String kind, ObjectMeta metadata, List<PolicyRule> rules, AggregationRule aggregationRule)
        implements ClusterRoleBuilder.With, KubeObject {
    public static final String API_VERSION = "rbac.authorization.k8s.io/v1";
    public static final String KIND = "ClusterRole";

    public ClusterRole {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public ClusterRole withMetadata(ObjectMeta metadata) {
        return ClusterRoleBuilder.With.super.withMetadata(metadata);
    }
}
