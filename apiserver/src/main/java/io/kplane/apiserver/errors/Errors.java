package io.kplane.apiserver.errors;

import io.kplane.api.ResourceType;
import io.kplane.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps failures from lower layers to {@link ApiError}s.
 *
 * <p>A client mistake reaches here already as an {@link ApiError} (or a store error that names the
 * client's mistake: not found, conflict, bad request). An outage of the database is a 503 the client
 * may retry. Anything else is a bug in the server: it becomes a 500 InternalError and is logged with
 * its stack trace, once, where it is translated, so it is never answered as the client's fault
 * (400) or as a transient outage (503), and never lost.
 */
public final class Errors {
    private static final Logger LOG = LoggerFactory.getLogger(Errors.class);

    private Errors() {}

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
            return resource == null
                    ? ApiError.of(409, "AlreadyExists", t.getMessage())
                    : ApiError.alreadyExists(resource, name);
        }
        if (t instanceof StoreException.Conflict) {
            return resource == null
                    ? ApiError.of(409, "Conflict", t.getMessage())
                    : ApiError.staleResourceVersion(resource, name);
        }
        if (t instanceof StoreException.Expired expired) {
            return ApiError.expired(expired.getMessage());
        }
        if (t instanceof StoreException.BadRequest) {
            return ApiError.badRequest(t.getMessage());
        }
        if (t instanceof StoreException.Overloaded overloaded) {
            return ApiError.tooManyRequests(overloaded.retryAfterSeconds());
        }
        if (t instanceof StoreException.Unavailable) {
            return ApiError.unavailable("the storage is unavailable: " + t.getMessage());
        }
        return internal(t, describe(resource, name));
    }

    /** A 500 for a failure that is the server's fault; logs it with its stack trace. */
    public static ApiError internal(Throwable failure, String during) {
        Throwable t = unwrap(failure);
        LOG.error(
                "internal error{}: {}", during == null || during.isEmpty() ? "" : " (" + during + ")", t.toString(), t);
        return ApiError.internal(t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
    }

    private static String describe(ResourceType resource, String name) {
        if (resource == null) {
            return "";
        }
        return resource.storageName() + (name == null ? "" : " \"" + name + "\"");
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
