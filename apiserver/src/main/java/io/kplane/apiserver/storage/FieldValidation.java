package io.kplane.apiserver.storage;

import io.kplane.apiserver.errors.ApiError;

/** The {@code fieldValidation} query parameter: what to do with fields the schema does not know. */
public enum FieldValidation {
    STRICT,
    WARN,
    IGNORE;

    public static FieldValidation parse(String value) {
        if (value == null || value.isEmpty()) {
            return WARN; // Kubernetes' default when the client says nothing
        }
        return switch (value) {
            case "Strict" -> STRICT;
            case "Warn" -> WARN;
            case "Ignore" -> IGNORE;
            default -> throw ApiError.badRequest(
                    "fieldValidation must be one of Strict, Warn or Ignore, got \"" + value + "\"");
        };
    }
}
