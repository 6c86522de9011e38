package io.kplane.client;

import io.kplane.api.meta.Status;

/**
 * The API server answered with an error {@link Status} (or a non-2xx response without one). Carries the
 * HTTP code, the Kubernetes reason ({@code NotFound}, {@code Conflict}, {@code Expired}, ...) and the Status.
 */
public class ApiException extends KubeClientException {
    private final int code;
    private final String reason;
    private final transient Status status;

    public ApiException(int code, String reason, String message, Status status) {
        super(message == null || message.isEmpty() ? code + " " + reason : message);
        this.code = code;
        this.reason = reason;
        this.status = status;
    }

    public static ApiException of(Status status) {
        int code = status.code() == null ? 500 : status.code();
        return new ApiException(code, status.reason(), status.message(), status);
    }

    public int code() {
        return code;
    }

    /** The Status reason, e.g. {@code NotFound}, {@code AlreadyExists}, {@code Conflict}, {@code Expired}. */
    public String reason() {
        return reason;
    }

    /** The Status the server sent, or null if the body was not a Status. */
    public Status status() {
        return status;
    }

    public boolean isNotFound() {
        return code == 404;
    }

    public boolean isAlreadyExists() {
        return code == 409 && "AlreadyExists".equals(reason);
    }

    public boolean isConflict() {
        return code == 409 && !"AlreadyExists".equals(reason);
    }

    /** 410: the requested resourceVersion was compacted away; an informer must relist. */
    public boolean isGone() {
        return code == 410;
    }

    public boolean isTooManyRequests() {
        return code == 429;
    }

    @Override
    public String toString() {
        return "ApiException(" + code + " " + reason + "): " + getMessage();
    }
}
