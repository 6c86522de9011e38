package io.kplane.api.admission;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/** Collects {@link FieldError}s; small helpers for the checks every validator repeats. */
final class FieldErrors {
    private final List<FieldError> errors = new ArrayList<>();

    void add(FieldError error) {
        errors.add(error);
    }

    void addAll(Collection<FieldError> more) {
        errors.addAll(more);
    }

    /** Each message as an Invalid error on {@code field} with value {@code value}. */
    void invalidEach(String field, Object value, List<String> messages) {
        for (String msg : messages) {
            errors.add(FieldError.invalid(field, value, msg));
        }
    }

    void nonNegative(String field, Number value) {
        if (value != null && value.longValue() < 0) {
            errors.add(FieldError.invalid(field, value, "must be greater than or equal to 0"));
        }
    }

    void immutable(String field, Object newValue, Object oldValue) {
        if (!Objects.equals(newValue, oldValue)) {
            errors.add(FieldError.invalid(field, newValue, "field is immutable"));
        }
    }

    /** A required enum: empty → Required, unknown → NotSupported listing {@code supported}. */
    void oneOf(String field, String value, List<String> supported) {
        if (value == null || value.isEmpty()) {
            errors.add(FieldError.required(field, ""));
        } else if (!supported.contains(value)) {
            errors.add(FieldError.notSupported(field, value, supported));
        }
    }

    List<FieldError> list() {
        return List.copyOf(errors);
    }

    static String index(String path, int i) {
        return path + "[" + i + "]";
    }
}
