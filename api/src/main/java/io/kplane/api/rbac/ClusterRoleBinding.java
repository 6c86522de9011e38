package io.kplane.api.rbac;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * rbac.authorization.k8s.io/v1 ClusterRoleBinding: stored and validated, not enforced.
 */
@RecordBuilder
public record ClusterRoleBinding(
        String apiVersion, String kind, ObjectMeta metadata, List<Subject> subjects, RoleRef roleRef)
        implements ClusterRoleBindingBuilder.With, KubeObject {
    public static final String API_VERSION = "rbac.authorization.k8s.io/v1";
    public static final String KIND = "ClusterRoleBinding";

    public ClusterRoleBinding {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public ClusterRoleBinding withMetadata(ObjectMeta metadata) {
        return ClusterRoleBindingBuilder.With.super.withMetadata(metadata);
    }
}
