package io.kplane.api.rbac;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * rbac.authorization.k8s.io/v1 Role: stored and validated, not enforced.
 */
@RecordBuilder
public record Role(String apiVersion, String kind, ObjectMeta metadata, List<PolicyRule> rules)
        implements RoleBuilder.With, KubeObject {
    public static final String API_VERSION = "rbac.authorization.k8s.io/v1";
    public static final String KIND = "Role";

    public Role {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
    }

    @Override
    public Role withMetadata(ObjectMeta metadata) {
        return RoleBuilder.With.super.withMetadata(metadata);
    }
}
