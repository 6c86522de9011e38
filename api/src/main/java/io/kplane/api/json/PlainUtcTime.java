package io.kplane.api.json;

import java.time.Instant;

/**
 * The one shape of time every Kubernetes object carries, {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}
 * ({@code metav1.Time} and {@code metav1.MicroTime} as the API server writes them), read by hand.
 * {@link Instant#parse} goes through {@code DateTimeFormatter}'s general machinery (parsed fields in
 * a map, then resolved), several microseconds per time and a large share of decoding a pod, whose
 * status alone holds half a dozen times. Anything outside that shape, a leap second or an invalid date
 * included, is left to {@link Instant#parse} by returning null, so the result and the errors are
 * exactly {@link Instant#parse}'s.
 */
public final class PlainUtcTime {
    private static final int[] NANO_SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    private PlainUtcTime() {}

    /** The instant, or null when the text is not of the plain UTC shape (then ask {@link Instant#parse}). */
    public static Instant parse(String s) {
        int n = s.length();
        if (n < 20
                || n > 30
                || n == 21
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':'
                || s.charAt(n - 1) != 'Z'
                || (n > 20 && s.charAt(19) != '.')) {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 7);
        int day = digits(s, 8, 10);
        int hour = digits(s, 11, 13);
        int minute = digits(s, 14, 16);
        int second = digits(s, 17, 19);
        int nanos = n == 20 ? 0 : digits(s, 20, n - 1);
        if (year < 0
                || month < 1
                || month > 12
                || day < 1
                || day > lengthOfMonth(year, month)
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59
                || nanos < 0) {
            return null;
        }
        if (n > 20) {
            nanos *= NANO_SCALE[n - 21];
        }
        long epochSecond = daysFromCivil(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second;
        return Instant.ofEpochSecond(epochSecond, nanos);
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's {@code days_from_civil}). */
    private static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = (y >= 0 ? y : y - 399) / 400;
        int yearOfEra = y - era * 400;
        int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468L;
    }

    /** The decimal value of s[from, to), or -1 unless every char there is an ASCII digit. */
    private static int digits(String s, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
