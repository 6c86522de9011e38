package io.kplane.api.admission;

import io.kplane.api.rbac.ClusterRoleBinding;
import io.kplane.api.rbac.RoleBinding;

/** RoleBindings and ClusterRoleBindings: roleRef, subjects; roleRef cannot change. Stored, not enforced. */
public final class RoleBindingAdmission {
    private RoleBindingAdmission() {}

    public static final class Namespaced extends TypedAdmission<RoleBinding> {
        public Namespaced() {
            super(RoleBinding.class, true, MetadataValidation.NameRule.PATH_SEGMENT);
        }

        @Override
        RoleBinding applyDefaults(RoleBinding b) {
            return b.withRoleRef(RbacValidation.defaultRoleRef(b.roleRef()))
                    .withSubjects(RbacValidation.defaultSubjects(b.subjects()));
        }

        @Override
        void validateSpec(RoleBinding b, FieldErrors errs) {
            RbacValidation.binding(b.roleRef(), b.subjects(), true, errs);
        }

        @Override
        void validateSpecUpdate(RoleBinding n, RoleBinding o, FieldErrors errs) {
            validateSpec(n, errs);
            RbacValidation.roleRefUnchanged(n.roleRef(), o.roleRef(), errs);
        }
    }

    public static final class Cluster extends TypedAdmission<ClusterRoleBinding> {
        public Cluster() {
            super(ClusterRoleBinding.class, false, MetadataValidation.NameRule.PATH_SEGMENT);
        }

        @Override
        ClusterRoleBinding applyDefaults(ClusterRoleBinding b) {
            return b.withRoleRef(RbacValidation.defaultRoleRef(b.roleRef()))
                    .withSubjects(RbacValidation.defaultSubjects(b.subjects()));
        }

        @Override
        void validateSpec(ClusterRoleBinding b, FieldErrors errs) {
            RbacValidation.binding(b.roleRef(), b.subjects(), false, errs);
        }

        @Override
        void validateSpecUpdate(ClusterRoleBinding n, ClusterRoleBinding o, FieldErrors errs) {
            validateSpec(n, errs);
            RbacValidation.roleRefUnchanged(n.roleRef(), o.roleRef(), errs);
        }
    }
}
