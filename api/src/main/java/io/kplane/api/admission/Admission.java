package io.kplane.api.admission;

import io.kplane.api.ResourceType;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.Status;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Defaulting and validation of one resource, as the Kubernetes API server does them at admission.
 * Pure functions: no I/O, no clock. The API server calls, per request:
 * <ol>
 *   <li>create: fill the system fields (uid, name from generateName, namespace, creationTimestamp),
 *       then {@link #defaultOnCreate}, then {@link #validateCreate};</li>
 *   <li>update: {@link #defaultOnUpdate}, then {@link #validateUpdate};</li>
 *   <li>status update: {@link #validateStatusUpdate}.</li>
 * </ol>
 * A non-empty error list becomes a 422 via {@link #invalid}. Which admission a resource has is its
 * API-server strategy's choice ({@code io.kplane.apiserver.registry.ResourceStrategies}).
 */
public interface Admission {

    /**
     * Defaults for a new object: scheme defaults plus what Kubernetes' create strategy sets (the
     * Job selector and labels derived from {@code metadata.uid}, a Pod's Pending status, ...).
     * Expects {@code metadata.uid} and the final {@code metadata.name} to be set already.
     */
    KubeObject defaultOnCreate(KubeObject obj);

    /** Scheme defaults for the body of an update (Kubernetes defaults every decoded object). */
    KubeObject defaultOnUpdate(KubeObject newObj, KubeObject oldObj);

    List<FieldError> validateCreate(KubeObject obj);

    List<FieldError> validateUpdate(KubeObject newObj, KubeObject oldObj);

    /** Checks for a write to the {@code status} subresource. */
    List<FieldError> validateStatusUpdate(KubeObject newObj, KubeObject oldObj);

    /**
     * The 422 {@code Status} Kubernetes returns: message {@code Job.batch "pi" is invalid: <errors>},
     * reason Invalid, one cause per error.
     */
    static Status invalid(ResourceType type, String name, List<FieldError> errors) {
        String qualifiedKind = type.isCoreGroup() ? type.kind() : type.kind() + "." + type.group();
        String aggregate = errors.size() == 1
                ? errors.get(0).message()
                : errors.stream().map(FieldError::message).collect(Collectors.joining(", ", "[", "]"));
        String message = qualifiedKind + " " + GoValues.quote(name == null ? "" : name) + " is invalid: " + aggregate;
        List<Status.StatusCause> causes =
                errors.stream().map(FieldError::toCause).toList();
        return Status.failure(
                422, "Invalid", message, new Status.StatusDetails(name, type.group(), type.kind(), null, causes, null));
    }
}
