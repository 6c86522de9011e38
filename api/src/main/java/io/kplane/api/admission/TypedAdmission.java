package io.kplane.api.admission;

import io.kplane.api.meta.KubeObject;
import java.util.List;

/**
 * Base for the per-kind admissions: casts once, runs the metadata checks every kind shares, and
 * leaves the kind's own rules to subclasses.
 */
abstract class TypedAdmission<T extends KubeObject> implements Admission {
    private final Class<T> type;
    private final boolean namespaced;
    private final MetadataValidation.NameRule nameRule;

    TypedAdmission(Class<T> type, boolean namespaced, MetadataValidation.NameRule nameRule) {
        this.type = type;
        this.namespaced = namespaced;
        this.nameRule = nameRule;
    }

    /** Scheme defaults, applied to every decoded object (create and update). */
    T applyDefaults(T obj) {
        return obj;
    }

    /** Defaults only the create strategy sets. Runs after {@link #applyDefaults}. */
    T prepareForCreate(T obj) {
        return obj;
    }

    void validateSpec(T obj, FieldErrors errs) {}

    void validateSpecUpdate(T newObj, T oldObj, FieldErrors errs) {
        validateSpec(newObj, errs);
    }

    void validateStatus(T newObj, T oldObj, FieldErrors errs) {}

    @Override
    public final KubeObject defaultOnCreate(KubeObject obj) {
        return prepareForCreate(applyDefaults(cast(obj)));
    }

    @Override
    public final KubeObject defaultOnUpdate(KubeObject newObj, KubeObject oldObj) {
        return applyDefaults(cast(newObj));
    }

    @Override
    public final List<FieldError> validateCreate(KubeObject obj) {
        T o = cast(obj);
        FieldErrors errs = new FieldErrors();
        MetadataValidation.validate(o.metadata(), namespaced, nameRule, errs);
        validateSpec(o, errs);
        return errs.list();
    }

    @Override
    public final List<FieldError> validateUpdate(KubeObject newObj, KubeObject oldObj) {
        T n = cast(newObj);
        T o = cast(oldObj);
        FieldErrors errs = new FieldErrors();
        MetadataValidation.validate(n.metadata(), namespaced, nameRule, errs);
        MetadataValidation.validateUpdate(n.metadata(), o.metadata(), errs);
        validateSpecUpdate(n, o, errs);
        return errs.list();
    }

    @Override
    public final List<FieldError> validateStatusUpdate(KubeObject newObj, KubeObject oldObj) {
        T n = cast(newObj);
        T o = cast(oldObj);
        FieldErrors errs = new FieldErrors();
        MetadataValidation.validateUpdate(n.metadata(), o.metadata(), errs);
        validateStatus(n, o, errs);
        return errs.list();
    }

    private T cast(KubeObject obj) {
        if (!type.isInstance(obj)) {
            throw new IllegalArgumentException("expected a " + type.getSimpleName() + " but got "
                    + (obj == null ? "null" : obj.getClass().getSimpleName()));
        }
        return type.cast(obj);
    }
}
