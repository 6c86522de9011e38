package io.kplane.api.admission;

import io.kplane.api.core.Namespace;
import io.kplane.api.core.NamespaceSpec;
import io.kplane.api.core.NamespaceStatus;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Namespaces: DNS-1123 label names, the {@code kubernetes.io/metadata.name} label, phase Active on create. */
public final class NamespaceAdmission extends TypedAdmission<Namespace> {
    static final String NAME_LABEL = "kubernetes.io/metadata.name";
    static final String FINALIZER = "kubernetes";

    public NamespaceAdmission() {
        super(Namespace.class, false, MetadataValidation.NameRule.LABEL);
    }

    @Override
    Namespace applyDefaults(Namespace ns) {
        ObjectMeta meta = ns.metadata() == null ? ObjectMetaBuilder.builder().build() : ns.metadata();
        if (meta.name() != null && !meta.name().isEmpty()) {
            Map<String, String> labels = new LinkedHashMap<>(meta.labelsOrEmpty());
            labels.put(NAME_LABEL, meta.name());
            meta = meta.withLabels(labels);
        }
        return ns.withMetadata(meta);
    }

    @Override
    Namespace prepareForCreate(Namespace ns) {
        NamespaceSpec spec =
                ns.spec() == null || ns.spec().finalizers() == null ? new NamespaceSpec(List.of(FINALIZER)) : ns.spec();
        return ns.withSpec(spec).withStatus(new NamespaceStatus(NamespaceStatus.ACTIVE, null));
    }

    @Override
    void validateSpec(Namespace ns, FieldErrors errs) {
        if (ns.spec() != null && ns.spec().finalizers() != null) {
            for (int i = 0; i < ns.spec().finalizers().size(); i++) {
                String f = ns.spec().finalizers().get(i);
                String path = FieldErrors.index("spec.finalizers", i);
                if (!f.equals(FINALIZER)) {
                    errs.invalidEach(path, f, NameRules.qualifiedName(f));
                    if (!f.contains("/")) {
                        errs.add(FieldError.invalid(
                                path, f, "name is neither a standard finalizer name nor is it fully qualified"));
                    }
                }
            }
        }
    }

    @Override
    void validateStatus(Namespace newNs, Namespace oldNs, FieldErrors errs) {
        if (newNs.status() != null && newNs.status().phase() != null) {
            errs.oneOf("status.phase", newNs.status().phase(), List.of("Active", "Terminating"));
        }
    }
}
