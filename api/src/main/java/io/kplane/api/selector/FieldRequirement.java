package io.kplane.api.selector;

/** One term of a field selector: {@code field=value}, {@code field==value} or {@code field!=value}. */
public record FieldRequirement(String field, boolean negated, String value) {

    public boolean matches(String actual) {
        return negated != value.equals(actual);
    }

    @Override
    public String toString() {
        return FieldQuery.escape(field) + (negated ? "!=" : "=") + FieldQuery.escape(value);
    }
}
