package io.kplane.api.admission;

import io.kplane.api.rbac.PolicyRule;
import io.kplane.api.rbac.RoleRef;
import io.kplane.api.rbac.Subject;
import java.util.List;

/**
 * rbac.authorization.k8s.io/v1 checks ({@code pkg/apis/rbac/validation}) and defaults. kplane stores
 * and validates RBAC objects so that bundles apply, but authorizes nothing with them.
 */
final class RbacValidation {
    static final String GROUP = "rbac.authorization.k8s.io";

    private RbacValidation() {}

    static void rules(List<PolicyRule> rules, boolean namespaced, FieldErrors errs) {
        if (rules == null) {
            return;
        }
        for (int i = 0; i < rules.size(); i++) {
            rule(rules.get(i), namespaced, FieldErrors.index("rules", i), errs);
        }
    }

    private static void rule(PolicyRule rule, boolean namespaced, String path, FieldErrors errs) {
        if (rule == null) {
            return;
        }
        if (empty(rule.verbs())) {
            errs.add(FieldError.required(path + ".verbs", "verbs must contain at least one value"));
        }
        if (!empty(rule.nonResourceURLs())) {
            if (namespaced) {
                errs.add(FieldError.invalid(
                        path + ".nonResourceURLs",
                        rule.nonResourceURLs(),
                        "namespaced rules cannot apply to non-resource URLs"));
            }
            if (!empty(rule.apiGroups()) || !empty(rule.resources()) || !empty(rule.resourceNames())) {
                errs.add(FieldError.invalid(
                        path + ".nonResourceURLs",
                        rule.nonResourceURLs(),
                        "rules cannot apply to both regular resources and non-resource URLs"));
            }
            return;
        }
        if (empty(rule.apiGroups())) {
            errs.add(FieldError.required(path + ".apiGroups", "resource rules must supply at least one api group"));
        }
        if (empty(rule.resources())) {
            errs.add(FieldError.required(path + ".resources", "resource rules must supply at least one resource"));
        }
    }

    /** {@code RoleRef.apiGroup} defaults to the RBAC group. */
    static RoleRef defaultRoleRef(RoleRef ref) {
        return ref != null && (ref.apiGroup() == null || ref.apiGroup().isEmpty())
                ? new RoleRef(GROUP, ref.kind(), ref.name())
                : ref;
    }

    /** User and Group subjects default their apiGroup to the RBAC group ({@code SetDefaults_Subject}). */
    static List<Subject> defaultSubjects(List<Subject> subjects) {
        if (subjects == null) {
            return null;
        }
        return subjects.stream()
                .map(s -> s != null
                                && (s.apiGroup() == null || s.apiGroup().isEmpty())
                                && ("User".equals(s.kind()) || "Group".equals(s.kind()))
                        ? new Subject(s.kind(), GROUP, s.name(), s.namespace())
                        : s)
                .toList();
    }

    static void binding(RoleRef ref, List<Subject> subjects, boolean namespaced, FieldErrors errs) {
        RoleRef r = ref == null ? new RoleRef(null, null, null) : ref;
        if (!GROUP.equals(r.apiGroup())) {
            errs.add(FieldError.notSupported("roleRef.apiGroup", str(r.apiGroup()), List.of(GROUP)));
        }
        List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
        if (!kinds.contains(r.kind())) {
            errs.add(FieldError.notSupported("roleRef.kind", str(r.kind()), kinds));
        }
        if (r.name() == null || r.name().isEmpty()) {
            errs.add(FieldError.required("roleRef.name", ""));
        } else {
            errs.invalidEach("roleRef.name", r.name(), NameRules.pathSegmentName(r.name(), false));
        }
        if (subjects != null) {
            for (int i = 0; i < subjects.size(); i++) {
                subject(subjects.get(i), namespaced, FieldErrors.index("subjects", i), errs);
            }
        }
    }

    private static void subject(Subject s, boolean namespaced, String path, FieldErrors errs) {
        Subject subject = s == null ? new Subject(null, null, null, null) : s;
        if (subject.name() == null || subject.name().isEmpty()) {
            errs.add(FieldError.required(path + ".name", ""));
        }
        switch (str(subject.kind())) {
            case "ServiceAccount" -> {
                if (subject.name() != null && !subject.name().isEmpty()) {
                    errs.invalidEach(path + ".name", subject.name(), NameRules.dns1123Subdomain(subject.name()));
                }
                if (subject.apiGroup() != null && !subject.apiGroup().isEmpty()) {
                    errs.add(FieldError.notSupported(path + ".apiGroup", subject.apiGroup(), List.of("")));
                }
                if (!namespaced
                        && (subject.namespace() == null || subject.namespace().isEmpty())) {
                    errs.add(FieldError.required(path + ".namespace", ""));
                }
            }
            case "User", "Group" -> {
                if (!GROUP.equals(subject.apiGroup())) {
                    errs.add(FieldError.notSupported(path + ".apiGroup", str(subject.apiGroup()), List.of(GROUP)));
                }
            }
            default -> errs.add(FieldError.notSupported(
                    path + ".kind", str(subject.kind()), List.of("ServiceAccount", "User", "Group")));
        }
    }

    static void roleRefUnchanged(RoleRef newRef, RoleRef oldRef, FieldErrors errs) {
        if (!java.util.Objects.equals(newRef, oldRef)) {
            errs.add(FieldError.invalid("roleRef", FieldError.OMIT, "cannot change roleRef"));
        }
    }

    private static boolean empty(List<String> l) {
        return l == null || l.isEmpty();
    }

    private static String str(String s) {
        return s == null ? "" : s;
    }
}
