package io.kplane.kubectl.print;

import java.time.Duration;
import java.time.Instant;

/** Ages as kubectl prints them ({@code 5s}, {@code 2m30s}, {@code 3h5m}, {@code 2d3h}). */
public final class HumanDuration {
    private HumanDuration() {
    }

    public static String format(Duration d) {
        long seconds = d.getSeconds() < 0 && d.getNano() > 0 ? d.getSeconds() + 1 : d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return seconds % 60 == 0 ? minutes + "m" : minutes + "m" + seconds % 60 + "s";
        } else if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return minutes % 60 == 0 ? hours + "h" : hours + "h" + minutes % 60 + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            return hours % 24 == 0 ? hours / 24 + "d" : hours / 24 + "d" + hours % 24 + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }

    public static String since(Instant t, Instant now) {
        return t == null ? "<unknown>" : format(Duration.between(t, now));
    }

    public static Instant parse(String rfc3339) {
        if (rfc3339 == null || rfc3339.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(rfc3339);
        } catch (java.time.format.DateTimeParseException e) {
            try {
                return java.time.OffsetDateTime.parse(rfc3339).toInstant();
            } catch (java.time.format.DateTimeParseException e2) {
                return null;
            }
        }
    }
}
