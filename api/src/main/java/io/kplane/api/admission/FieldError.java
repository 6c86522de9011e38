package io.kplane.api.admission;

import io.kplane.api.meta.Status;

/**
 * One invalid field, as Kubernetes' {@code field.Error}: a type, the path of the field
 * ({@code spec.template.spec.restartPolicy}), the offending value and a detail message.
 *
 * @param badValue the value as the user sent it; rendered the way Kubernetes renders it
 *                 (strings quoted, numbers bare). {@link #OMIT} leaves the value out.
 */
public record FieldError(Type type, String field, Object badValue, String detail) {

    /** Marker for errors whose message does not show a value. */
    public static final Object OMIT = new Object() {
        @Override
        public String toString() {
            return "<omitted>";
        }
    };

    public enum Type {
        REQUIRED("FieldValueRequired", "Required value"),
        INVALID("FieldValueInvalid", "Invalid value"),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden"),
        DUPLICATE("FieldValueDuplicate", "Duplicate value"),
        TOO_LONG("FieldValueTooLong", "Too long"),
        TOO_MANY("FieldValueTooMany", "Too many");

        private final String reason;
        private final String label;

        Type(String reason, String label) {
            this.reason = reason;
            this.label = label;
        }

        /** The {@code StatusCause.reason}, e.g. {@code FieldValueInvalid}. */
        public String reason() {
            return reason;
        }

        /** The message prefix, e.g. {@code Invalid value}. */
        public String label() {
            return label;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, null, detail);
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError notSupported(String field, Object value, java.util.List<String> supported) {
        return new FieldError(
                Type.NOT_SUPPORTED,
                field,
                value,
                supported == null || supported.isEmpty() ? "" : "supported values: " + GoValues.quotedList(supported));
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, null, detail);
    }

    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, "");
    }

    public static FieldError tooLong(String field, int maxLength) {
        return new FieldError(Type.TOO_LONG, field, null, "must have at most " + maxLength + " bytes");
    }

    public static FieldError tooMany(String field, int actual, int max) {
        return new FieldError(Type.TOO_MANY, field, actual, "must have at most " + max + " items");
    }

    /** The message without the field path, as in {@code StatusCause.message}: Kubernetes' {@code ErrorBody()}. */
    public String body() {
        StringBuilder s = new StringBuilder(type.label());
        boolean showsValue =
                switch (type) {
                    case REQUIRED, FORBIDDEN, TOO_LONG -> false;
                    default -> badValue != OMIT;
                };
        if (showsValue) {
            s.append(": ").append(GoValues.render(badValue));
        }
        if (detail != null && !detail.isEmpty()) {
            s.append(": ").append(detail);
        }
        return s.toString();
    }

    /** {@code field: body}, the way the error appears in {@code Status.message}. */
    public String message() {
        return field + ": " + body();
    }

    public Status.StatusCause toCause() {
        return new Status.StatusCause(type.reason(), body(), field);
    }

    @Override
    public String toString() {
        return message();
    }
}
