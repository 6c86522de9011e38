package io.kplane.api.util;

import java.time.Duration;
import java.time.Instant;

/**
 * Durations and ages written the way kubectl writes them ({@code 5s}, {@code 2m30s}, {@code 10m},
 * {@code 3h5m}, {@code 2d3h}, {@code 3y45d}): a port of apimachinery's {@code duration.HumanDuration}.
 * The server-side table printers and kubectl-lite both use it, so they print the same ages.
 */
public final class HumanDuration {
    private HumanDuration() {}

    public static String format(Duration d) {
        // truncate toward zero like Go's int(d.Seconds()); Duration.getSeconds() floors
        long seconds = d.getSeconds() < 0 && d.getNano() > 0 ? d.getSeconds() + 1 : d.getSeconds();
        if (seconds < -1) {
            // more than two seconds in the future: clocks disagree badly
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }

    /** kubectl's {@code translateTimestampSince}: the age of {@code timestamp}, or {@code <unknown>} if unset. */
    public static String since(Instant timestamp, Instant now) {
        if (timestamp == null) {
            return "<unknown>";
        }
        return format(Duration.between(timestamp, now));
    }
}
