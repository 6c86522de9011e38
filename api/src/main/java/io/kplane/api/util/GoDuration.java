package io.kplane.api.util;

import java.time.Duration;
import java.util.Map;

/**
 * Durations as Kubernetes components and kubectl take them on the command line: a port of Go's
 * {@code time.ParseDuration}. A possibly signed sequence of decimal numbers, each with an optional
 * fraction and a unit: {@code 300ms}, {@code -1.5h}, {@code 2h45m}, {@code 1m30s}, {@code .5s}; units
 * {@code ns}, {@code us} ({@code µs}, {@code μs}), {@code ms}, {@code s}, {@code m}, {@code h}. A bare
 * {@code 0} is zero; any other number needs a unit. The result is exact to the nanosecond and bounded
 * like Go's {@code time.Duration} (about ±292 years).
 *
 * <p>Every kplane component and kubectl-lite parses durations here, so a flag value that works for one
 * works for all. Errors carry Go's messages ({@code time: missing unit in duration "10"}).
 */
public final class GoDuration {
    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final Map<String, Long> UNITS = Map.of(
            "ns", 1L,
            "us", NANOS_PER_MICRO,
            "\u00b5s", NANOS_PER_MICRO, // U+00B5 micro sign
            "\u03bcs", NANOS_PER_MICRO, // U+03BC Greek small letter mu
            "ms", NANOS_PER_MILLI,
            "s", NANOS_PER_SECOND,
            "m", 60 * NANOS_PER_SECOND,
            "h", 3600 * NANOS_PER_SECOND);
    /** 1<<63 as an unsigned value: Go accumulates the magnitude in a uint64 and allows up to this. */
    private static final long LIMIT = Long.MIN_VALUE;

    private GoDuration() {}

    /** Parses {@code text} with Go's grammar; throws {@link IllegalArgumentException} with Go's message. */
    public static Duration parse(String text) {
        if (text == null) {
            throw invalid("");
        }
        String s = text;
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (s.substring(i).equals("0")) {
            return Duration.ZERO;
        }
        if (i == s.length()) {
            throw invalid(text);
        }
        long total = 0; // unsigned magnitude in nanoseconds
        while (i < s.length()) {
            char c = s.charAt(i);
            if (!(c == '.' || isDigit(c))) {
                throw invalid(text);
            }
            // [0-9]*
            int start = i;
            long whole = 0;
            while (i < s.length() && isDigit(s.charAt(i))) {
                if (Long.compareUnsigned(whole, Long.divideUnsigned(LIMIT, 10)) > 0) {
                    throw invalid(text);
                }
                whole = whole * 10 + (s.charAt(i) - '0');
                if (Long.compareUnsigned(whole, LIMIT) > 0) {
                    throw invalid(text);
                }
                i++;
            }
            boolean digitsBefore = i != start;
            // (\.[0-9]*)?
            long fraction = 0;
            double scale = 1;
            boolean digitsAfter = false;
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fractionStart = i;
                boolean overflow = false;
                while (i < s.length() && isDigit(s.charAt(i))) {
                    // like Go: digits beyond what a uint64 holds are consumed and ignored
                    if (!overflow) {
                        if (Long.compareUnsigned(fraction, Long.divideUnsigned(LIMIT, 10)) > 0) {
                            overflow = true;
                        } else {
                            long next = fraction * 10 + (s.charAt(i) - '0');
                            if (Long.compareUnsigned(next, LIMIT) > 0) {
                                overflow = true;
                            } else {
                                fraction = next;
                                scale *= 10;
                            }
                        }
                    }
                    i++;
                }
                digitsAfter = i != fractionStart;
            }
            if (!digitsBefore && !digitsAfter) {
                throw invalid(text); // ".s" or "-.s"
            }
            int unitStart = i;
            while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
                i++;
            }
            if (i == unitStart) {
                throw new IllegalArgumentException("time: missing unit in duration " + quote(text));
            }
            String unitName = s.substring(unitStart, i);
            Long unit = UNITS.get(unitName);
            if (unit == null) {
                throw new IllegalArgumentException(
                        "time: unknown unit " + quote(unitName) + " in duration " + quote(text));
            }
            if (Long.compareUnsigned(whole, Long.divideUnsigned(LIMIT, unit)) > 0) {
                throw invalid(text);
            }
            long value = whole * unit;
            if (fraction != 0) { // unsigned: any non-zero fraction
                // a double is nanosecond-exact for fractions of an hour, as in Go
                value += (long) (unsignedToDouble(fraction) * (unit / scale));
                if (Long.compareUnsigned(value, LIMIT) > 0) {
                    throw invalid(text);
                }
            }
            total += value;
            if (Long.compareUnsigned(total, LIMIT) > 0) {
                throw invalid(text);
            }
        }
        if (negative) {
            return Duration.ofNanos(-total); // -(1<<63) wraps to exactly Long.MIN_VALUE
        }
        if (total == LIMIT) {
            throw invalid(text);
        }
        return Duration.ofNanos(total);
    }

    /** {@link #parse}, refusing negative values (periods, windows, timeouts a component waits for). */
    public static Duration parseNonNegative(String text) {
        Duration d = parse(text);
        if (d.isNegative()) {
            throw new IllegalArgumentException("negative duration " + quote(text) + " is not allowed here");
        }
        return d;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static double unsignedToDouble(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("time: invalid duration " + quote(text));
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}
