package io.kplane.api.clock;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's {@code time.ParseDuration} and {@code Duration.String} for the units a clock needs (h, m, s, ms). */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private GoDuration() {}

    /** {@code 1h30m}, {@code -90s}, {@code 1.5h}, {@code 250ms}, {@code 0}. */
    public static Duration parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing duration");
        }
        String t = text.trim();
        boolean negative = t.startsWith("-");
        if (negative || t.startsWith("+")) {
            t = t.substring(1);
        }
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(t);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            java.math.BigDecimal v = new java.math.BigDecimal(m.group(1));
            long unitNanos =
                    switch (m.group(2)) {
                        case "ms" -> 1_000_000L;
                        case "s" -> 1_000_000_000L;
                        case "m" -> 60_000_000_000L;
                        default -> 3_600_000_000_000L;
                    };
            total = total.plusNanos(
                    v.multiply(java.math.BigDecimal.valueOf(unitNanos)).longValue());
            end = m.end();
        }
        if (t.isEmpty() || end != t.length()) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        return negative ? total.negated() : total;
    }

    /** Go's form: {@code 1h30m0s}, {@code -5m0s}, {@code 0s}; sub-second parts as a decimal. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder(d.isNegative() ? "-" : "");
        Duration a = d.abs();
        long hours = a.toHours();
        long minutes = a.toMinutesPart();
        long seconds = a.toSecondsPart();
        int nanos = a.toNanosPart();
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        sb.append(seconds);
        if (nanos > 0) {
            String frac = String.format("%09d", nanos).replaceAll("0+$", "");
            sb.append('.').append(frac);
        }
        return sb.append('s').toString();
    }
}
