package io.kplane.api.meta;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes {@code Status} object: every error the API server returns, and the body of a
 * successful DELETE. {@code metadata} is always written (as {@code {}}) because kubectl expects it.
 */
public record Status(
        String apiVersion,
        String kind,
        @JsonInclude(JsonInclude.Include.ALWAYS) Map<String, Object> metadata,
        String status,
        String message,
        String reason,
        StatusDetails details,
        Integer code) {

    public static final String SUCCESS = "Success";
    public static final String FAILURE = "Failure";

    public static Status failure(int code, String reason, String message, StatusDetails details) {
        return new Status("v1", "Status", Map.of(), FAILURE, message, reason, details, code);
    }

    public static Status success(StatusDetails details) {
        return new Status("v1", "Status", Map.of(), SUCCESS, null, null, details, null);
    }

    public record StatusDetails(
            String name, String group, String kind, String uid, List<StatusCause> causes, Integer retryAfterSeconds) {
        public static StatusDetails of(String name, String group, String kind) {
            return new StatusDetails(name, group, kind, null, null, null);
        }
    }

    /** One invalid field: {@code reason} is e.g. FieldValueInvalid, FieldValueRequired. */
    public record StatusCause(String reason, String message, String field) {}
}
