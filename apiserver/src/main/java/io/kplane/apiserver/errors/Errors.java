package io.kplane.apiserver.errors;

import io.kplane.api.ResourceType;
import io.kplane.store.StoreException;

/** Maps failures from lower layers to {@link ApiError}s. */
public final class Errors {
    private Errors() {
    }

    /** Translates a failure about the object {@code name} of {@code resource} (either may be null). */
    public static ApiError toApiError(Throwable failure, ResourceType resource, String name) {
        Throwable t = unwrap(failure);
        if (t instanceof ApiError apiError) {
            return apiError;
        }
        if (t instanceof StoreException.NotFound) {
            return resource == null ? ApiError.pathNotFound() : ApiError.notFound(resource, name);
        }
        if (t instanceof StoreException.AlreadyExists) {
            return resource == null ? ApiError.of(409, "AlreadyExists", t.getMessage())
                    : ApiError.alreadyExists(resource, name);
        }
        if (t instanceof StoreException.Conflict) {
            return resource == null ? ApiError.of(409, "Conflict", t.getMessage())
                    : ApiError.staleResourceVersion(resource, name);
        }
        if (t instanceof StoreException.Expired expired) {
            return ApiError.expired(expired.getMessage());
        }
        if (t instanceof StoreException.BadRequest) {
            return ApiError.badRequest(t.getMessage());
        }
        if (t instanceof StoreException.BadRequest) {
            return ApiError.badRequest(t.getMessage());
        }
        if (t instanceof StoreException.Unavailable) {
            return ApiError.unavailable("the storage is unavailable: " + t.getMessage());
        }
        return ApiError.internal(t.getClass().getSimpleName() + ": " + t.getMessage());
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof java.util.concurrent.CompletionException
                || current instanceof java.util.concurrent.ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
