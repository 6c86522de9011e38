package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.admission.FieldError;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.registry.ResourceStrategies;
import io.kplane.apiserver.storage.Trees;
import java.util.List;

/**
 * The api module's defaulting and validation ({@link io.kplane.api.admission.Admission}) applied to
 * object JSON: decode to the typed record, default, validate, encode (a create hands the record on:
 * {@link AdmittedObject}). Errors become 422 Invalid.
 */
public final class KubeAdmission implements Admission {
    private static io.kplane.api.admission.Admission rules(ResourceType type) {
        return ResourceStrategies.of(type).admission();
    }

    @Override
    public ObjectNode admit(ResourceType type, ObjectNode object, ObjectNode old) {
        return Json.toTree(admitTyped(type, object, old));
    }

    /** The defaulted, validated record itself: the create path encodes it without a tree in between. */
    @Override
    public AdmittedObject admitCreate(ResourceType type, ObjectNode object) {
        return AdmittedObject.typed(admitTyped(type, object, null));
    }

    private static KubeObject admitTyped(ResourceType type, ObjectNode object, ObjectNode old) {
        io.kplane.api.admission.Admission rules = rules(type);
        ResourceStrategies.of(type).checkDecodable(object);
        KubeObject typed = decode(type, object);
        List<FieldError> errors;
        if (old == null) {
            typed = rules.defaultOnCreate(typed);
            errors = rules.validateCreate(typed);
        } else {
            KubeObject previous = decode(type, old);
            typed = rules.defaultOnUpdate(typed, previous);
            errors = rules.validateUpdate(typed, previous);
        }
        reject(type, object, errors);
        return typed;
    }

    @Override
    public ObjectNode admitStatus(ResourceType type, ObjectNode object, ObjectNode old) {
        List<FieldError> errors = rules(type).validateStatusUpdate(decode(type, object), decode(type, old));
        reject(type, object, errors);
        return object;
    }

    private static void reject(ResourceType type, ObjectNode object, List<FieldError> errors) {
        if (errors != null && !errors.isEmpty()) {
            throw ApiError.fromStatus(io.kplane.api.admission.Admission.invalid(type, Trees.name(object), errors));
        }
    }

    private static KubeObject decode(ResourceType type, ObjectNode object) {
        try {
            return Json.mapper().treeToValue(object, type.javaType());
        } catch (Exception e) {
            throw ApiError.badRequest("error decoding " + type.kind() + ": " + e.getMessage());
        }
    }
}
