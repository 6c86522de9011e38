package io.kplane.api.json;

import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * A whole-second {@link Instant} as {@code metav1.Time} text ({@code 2026-11-24T16:20:05Z}),
 * exactly {@link DateTimeFormatter#ISO_INSTANT}'s, remembering the last second formatted: every
 * object created or updated in the same second gets the same {@code creationTimestamp} (or status
 * time), so under load nearly every call is a comparison instead of a pass through the formatter's
 * general machinery. One immutable pair in a volatile field, so threads never see a second with
 * another second's text.
 */
final class SecondTimes {
    private record Formatted(long epochSecond, String text) {}

    private static volatile Formatted last = new Formatted(0, "1970-01-01T00:00:00Z");

    private SecondTimes() {}

    /** {@code value} must have no fraction of a second. */
    static String format(Instant value) {
        Formatted cached = last;
        long second = value.getEpochSecond();
        if (cached.epochSecond() == second) {
            return cached.text();
        }
        String text = DateTimeFormatter.ISO_INSTANT.format(value);
        last = new Formatted(second, text);
        return text;
    }
}
