package io.kplane.apiserver.errors;

import io.kplane.api.ResourceType;
import io.kplane.api.meta.Status;
import java.util.List;

/**
 * An error the API answers with: an HTTP code plus the Kubernetes {@link Status} body. Thrown or
 * failed into futures anywhere below the HTTP layer; the router turns it into the response.
 */
public final class ApiError extends RuntimeException {
    private final transient Status status;
    private final Integer retryAfterSeconds;

    private ApiError(Status status, Integer retryAfterSeconds) {
        super(status.message(), null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Status status() {
        return status;
    }

    public int code() {
        return status.code();
    }

    public String reason() {
        return status.reason();
    }

    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** An error with a Status built elsewhere (e.g. by the api module's admission). */
    public static ApiError fromStatus(Status status) {
        return new ApiError(status, null);
    }

    public static ApiError of(int code, String reason, String message) {
        return new ApiError(Status.failure(code, reason, message, null), null);
    }

    private static Status.StatusDetails details(ResourceType resource, String name) {
        return Status.StatusDetails.of(name, resource.group(), resource.resource());
    }

    public static ApiError badRequest(String message) {
        return of(400, "BadRequest", message);
    }

    public static ApiError unauthorized() {
        return of(401, "Unauthorized", "Unauthorized");
    }

    public static ApiError pathNotFound() {
        return of(404, "NotFound", "the server could not find the requested resource");
    }

    public static ApiError notFound(ResourceType resource, String name) {
        return new ApiError(
                Status.failure(
                        404,
                        "NotFound",
                        resource.storageName() + " \"" + name + "\" not found",
                        details(resource, name)),
                null);
    }

    public static ApiError namespaceNotFound(String namespace) {
        return new ApiError(
                Status.failure(
                        404,
                        "NotFound",
                        "namespaces \"" + namespace + "\" not found",
                        Status.StatusDetails.of(namespace, "", "namespaces")),
                null);
    }

    public static ApiError methodNotAllowed(String method) {
        return of(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    }

    public static ApiError alreadyExists(ResourceType resource, String name) {
        return new ApiError(
                Status.failure(
                        409,
                        "AlreadyExists",
                        resource.storageName() + " \"" + name + "\" already exists",
                        details(resource, name)),
                null);
    }

    public static ApiError conflict(ResourceType resource, String name, String why) {
        return new ApiError(
                Status.failure(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on " + resource.storageName() + " \"" + name + "\": " + why,
                        details(resource, name)),
                null);
    }

    public static ApiError staleResourceVersion(ResourceType resource, String name) {
        return conflict(
                resource,
                name,
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    public static ApiError expired(String message) {
        return of(410, "Expired", message);
    }

    public static ApiError tooLarge() {
        return of(413, "RequestEntityTooLarge", "the request body is too large");
    }

    public static ApiError unsupportedMediaType(String contentType) {
        return of(
                415,
                "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media "
                        + "types include: application/json, application/yaml (got \"" + contentType + "\")");
    }

    public static ApiError unsupportedPatchType(String contentType) {
        return of(
                415,
                "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media "
                        + "types include: application/json-patch+json, application/merge-patch+json, "
                        + "application/apply-patch+yaml, application/strategic-merge-patch+json (got \"" + contentType
                        + "\")");
    }

    /** 422 Invalid with one cause per bad field, message in Kubernetes' aggregated form. */
    public static ApiError invalid(ResourceType resource, String name, List<Status.StatusCause> causes) {
        StringBuilder message = new StringBuilder();
        message.append(resource.kind());
        if (!resource.group().isEmpty()) {
            message.append('.').append(resource.group());
        }
        message.append(" \"").append(name == null ? "" : name).append("\" is invalid: ");
        if (causes.size() > 1) {
            message.append('[');
        }
        for (int i = 0; i < causes.size(); i++) {
            Status.StatusCause c = causes.get(i);
            if (i > 0) {
                message.append(", ");
            }
            message.append(c.field() == null || c.field().isEmpty() ? "" : c.field() + ": ")
                    .append(c.message());
        }
        if (causes.size() > 1) {
            message.append(']');
        }
        Status.StatusDetails details =
                new Status.StatusDetails(name, resource.group(), resource.kind(), null, causes, null);
        return new ApiError(Status.failure(422, "Invalid", message.toString(), details), null);
    }

    public static ApiError invalidMessage(String message) {
        return of(422, "Invalid", message);
    }

    public static ApiError tooManyRequests(int retryAfterSeconds) {
        Status.StatusDetails details = new Status.StatusDetails(null, null, null, null, null, retryAfterSeconds);
        return new ApiError(
                Status.failure(429, "TooManyRequests", "Too many requests, please try again later.", details),
                retryAfterSeconds);
    }

    public static ApiError unavailable(String message) {
        return new ApiError(Status.failure(503, "ServiceUnavailable", message, null), 1);
    }

    public static ApiError timeout(String message) {
        return of(504, "Timeout", message);
    }

    public static ApiError internal(String message) {
        return of(500, "InternalError", "Internal error occurred: " + message);
    }
}
