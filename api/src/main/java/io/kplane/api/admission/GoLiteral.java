package io.kplane.api.admission;

/** A value rendered verbatim in an error message (e.g. Go's {@code []int32(nil)}). */
record GoLiteral(String text) {
    @Override
    public String toString() {
        return text;
    }
}
