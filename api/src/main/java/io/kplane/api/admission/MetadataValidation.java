package io.kplane.api.admission;

import io.kplane.api.meta.Finalizers;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** {@code metadata} checks shared by every kind, as Kubernetes' ValidateObjectMeta(Update). */
final class MetadataValidation {
    static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

    /** How a kind's names are checked: DNS-1123 subdomain for most kinds, label for namespaces. */
    enum NameRule {
        SUBDOMAIN,
        LABEL,
        PATH_SEGMENT
    }

    private MetadataValidation() {}

    static void validate(ObjectMeta meta, boolean namespaced, NameRule rule, FieldErrors errs) {
        String path = "metadata";
        if (meta == null) {
            errs.add(FieldError.required(path + ".name", "name or generateName is required"));
            if (namespaced) {
                errs.add(FieldError.required(path + ".namespace", ""));
            }
            return;
        }
        boolean labelOnly = rule == NameRule.LABEL;
        if (meta.generateName() != null && !meta.generateName().isEmpty()) {
            errs.invalidEach(
                    path + ".generateName",
                    meta.generateName(),
                    rule == NameRule.PATH_SEGMENT
                            ? NameRules.pathSegmentName(meta.generateName(), true)
                            : NameRules.objectName(meta.generateName(), true, labelOnly));
        }
        if (meta.name() == null || meta.name().isEmpty()) {
            errs.add(FieldError.required(path + ".name", "name or generateName is required"));
        } else {
            errs.invalidEach(
                    path + ".name",
                    meta.name(),
                    rule == NameRule.PATH_SEGMENT
                            ? NameRules.pathSegmentName(meta.name(), false)
                            : NameRules.objectName(meta.name(), false, labelOnly));
        }
        if (namespaced) {
            if (meta.namespace() == null || meta.namespace().isEmpty()) {
                errs.add(FieldError.required(path + ".namespace", ""));
            } else {
                errs.invalidEach(path + ".namespace", meta.namespace(), NameRules.dns1123Label(meta.namespace()));
            }
        } else if (meta.namespace() != null && !meta.namespace().isEmpty()) {
            errs.add(FieldError.forbidden(path + ".namespace", "not allowed on this type"));
        }
        errs.nonNegative(path + ".generation", meta.generation());
        labels(meta.labels(), path + ".labels", errs);
        annotations(meta.annotations(), path + ".annotations", errs);
        ownerReferences(meta.ownerReferencesOrEmpty(), path + ".ownerReferences", errs);
        finalizers(meta.finalizersOrEmpty(), path + ".finalizers", errs);
    }

    static void validateUpdate(ObjectMeta newMeta, ObjectMeta oldMeta, FieldErrors errs) {
        if (newMeta == null || oldMeta == null) {
            return;
        }
        String path = "metadata";
        if (oldMeta.deletionTimestamp() != null) {
            List<String> added = new ArrayList<>(newMeta.finalizersOrEmpty());
            added.removeAll(oldMeta.finalizersOrEmpty());
            if (!added.isEmpty()) {
                errs.add(FieldError.forbidden(
                        path + ".finalizers",
                        "no new finalizers can be added if the object is being deleted, found new finalizers "
                                + goStringSlice(added)));
            }
        }
        if (newMeta.generation() != null
                && oldMeta.generation() != null
                && newMeta.generation() < oldMeta.generation()) {
            errs.add(FieldError.invalid(path + ".generation", newMeta.generation(), "must not be decremented"));
        }
        errs.immutable(path + ".name", newMeta.name(), oldMeta.name());
        errs.immutable(path + ".namespace", emptyIfNull(newMeta.namespace()), emptyIfNull(oldMeta.namespace()));
        if (newMeta.uid() != null) {
            errs.immutable(path + ".uid", newMeta.uid(), oldMeta.uid());
        }
        if (newMeta.creationTimestamp() != null) {
            errs.immutable(path + ".creationTimestamp", newMeta.creationTimestamp(), oldMeta.creationTimestamp());
        }
    }

    /** Label keys must be qualified names and values valid label values; checked in key order. */
    static void labels(Map<String, String> labels, String path, FieldErrors errs) {
        if (labels == null) {
            return;
        }
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            errs.invalidEach(path, e.getKey(), NameRules.qualifiedName(e.getKey()));
            errs.invalidEach(path, e.getValue(), NameRules.labelValue(e.getValue() == null ? "" : e.getValue()));
        }
    }

    static void annotations(Map<String, String> annotations, String path, FieldErrors errs) {
        if (annotations == null) {
            return;
        }
        long total = 0;
        for (Map.Entry<String, String> e : new TreeMap<>(annotations).entrySet()) {
            errs.invalidEach(
                    path, e.getKey(), NameRules.qualifiedName(e.getKey().toLowerCase(java.util.Locale.ROOT)));
            total += e.getKey().length()
                    + (e.getValue() == null ? 0 : e.getValue().length());
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errs.add(FieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
        }
    }

    private static void ownerReferences(List<OwnerReference> refs, String path, FieldErrors errs) {
        List<String> controllers = new ArrayList<>();
        for (OwnerReference ref : refs) {
            String apiVersion = ref.apiVersion() == null ? "" : ref.apiVersion();
            String version = apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : apiVersion;
            if (version.isEmpty()) {
                errs.add(FieldError.invalid(path + ".apiVersion", apiVersion, "version must not be empty"));
            }
            if (ref.kind() == null || ref.kind().isEmpty()) {
                errs.add(FieldError.invalid(path + ".kind", emptyIfNull(ref.kind()), "kind must not be empty"));
            }
            if (ref.name() == null || ref.name().isEmpty()) {
                errs.add(FieldError.invalid(path + ".name", emptyIfNull(ref.name()), "name must not be empty"));
            }
            if (ref.uid() == null || ref.uid().isEmpty()) {
                errs.add(FieldError.invalid(path + ".uid", emptyIfNull(ref.uid()), "uid must not be empty"));
            }
            if (Boolean.TRUE.equals(ref.controller())) {
                controllers.add(ref.kind() + "/" + ref.name());
            }
        }
        if (controllers.size() > 1) {
            errs.add(FieldError.invalid(
                    path,
                    FieldError.OMIT,
                    "Only one reference can have Controller set to true. Found \"true\" in references for "
                            + String.join(" and ", controllers)));
        }
    }

    private static void finalizers(List<String> finalizers, String path, FieldErrors errs) {
        Set<String> seen = new HashSet<>();
        for (String f : finalizers) {
            errs.invalidEach(path, f, NameRules.qualifiedName(f));
            if (!seen.add(f)) {
                errs.add(FieldError.duplicate(path, f));
            }
        }
        if (seen.contains(Finalizers.ORPHAN) && seen.contains(Finalizers.FOREGROUND_DELETION)) {
            errs.add(FieldError.invalid(
                    path, FieldError.OMIT, "finalizer orphan and foregroundDeletion cannot be both set"));
        }
    }

    private static String goStringSlice(List<String> values) {
        return values.stream()
                .map(GoValues::quote)
                .collect(java.util.stream.Collectors.joining(", ", "[]string{", "}"));
    }

    private static String emptyIfNull(String s) {
        return s == null ? "" : s;
    }
}
