package io.kplane.client;

import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

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

    /**
     * The exception for an error response: a Status body gives code, reason and message; anything else
     * gets a reason from the HTTP code and (the start of) the body as its message.
     */
    public static ApiException fromResponse(int httpCode, byte[] body) {
        if (body != null && body.length > 0) {
            try {
                var tree = Json.mapper().readTree(body);
                if (tree != null && "Status".equals(tree.path("kind").asText())) {
                    Status status = Json.mapper().treeToValue(tree, Status.class);
                    int code = status.code() == null || status.code() == 0 ? httpCode : status.code();
                    return new ApiException(
                            code,
                            status.reason() == null ? reasonFor(code) : status.reason(),
                            status.message(),
                            status);
                }
            } catch (IOException | RuntimeException e) {
                // not JSON: fall through and report the raw text
            }
        }
        String text =
                body == null ? "" : new String(body, 0, Math.min(body.length, 500), StandardCharsets.UTF_8).trim();
        return new ApiException(
                httpCode,
                reasonFor(httpCode),
                text.isEmpty() ? "the server responded " + httpCode + " " + reasonFor(httpCode) : text,
                null);
    }

    /** The Kubernetes reason that goes with an HTTP status code, for error responses without a Status. */
    private static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "Unknown";
        };
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
