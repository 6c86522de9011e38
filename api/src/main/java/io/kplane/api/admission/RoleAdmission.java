package io.kplane.api.admission;

import io.kplane.api.rbac.ClusterRole;
import io.kplane.api.rbac.Role;

/** Roles and ClusterRoles: path-segment names and well-formed rules. Stored, not enforced. */
public final class RoleAdmission {
    private RoleAdmission() {}

    public static final class Namespaced extends TypedAdmission<Role> {
        public Namespaced() {
            super(Role.class, true, MetadataValidation.NameRule.PATH_SEGMENT);
        }

        @Override
        void validateSpec(Role role, FieldErrors errs) {
            RbacValidation.rules(role.rules(), true, errs);
        }
    }

    public static final class Cluster extends TypedAdmission<ClusterRole> {
        public Cluster() {
            super(ClusterRole.class, false, MetadataValidation.NameRule.PATH_SEGMENT);
        }

        @Override
        void validateSpec(ClusterRole role, FieldErrors errs) {
            RbacValidation.rules(role.rules(), false, errs);
        }
    }
}
