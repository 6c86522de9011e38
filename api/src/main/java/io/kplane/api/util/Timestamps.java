package io.kplane.api.util;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Reading RFC 3339 timestamps out of loosely typed JSON, where a bad value must not fail a whole printout. */
public final class Timestamps {
    private Timestamps() {}

    /** {@code text} as an instant ({@code Z} or a numeric offset), or null when it is empty or unreadable. */
    public static Instant parseOrNull(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }
}
