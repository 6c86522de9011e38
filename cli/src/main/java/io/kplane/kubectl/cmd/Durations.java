package io.kplane.kubectl.cmd;

import io.kplane.kubectl.CliException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go-style durations as kubectl flags take them: {@code 30s}, {@code 1m30s}, {@code 2h}, {@code 500ms}, {@code 10}. */
final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private Durations() {
    }

    static Duration parse(String text) {
        String t = text.trim();
        if (t.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(t));
        }
        Matcher m = PART.matcher(t);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            double v = Double.parseDouble(m.group(1));
            long millis = switch (m.group(2)) {
                case "ms" -> (long) v;
                case "s" -> (long) (v * 1000);
                case "m" -> (long) (v * 60_000);
                default -> (long) (v * 3_600_000);
            };
            total = total.plusMillis(millis);
            end = m.end();
        }
        if (end != t.length() || t.isEmpty()) {
            throw new CliException("error: invalid duration \"" + text + "\"");
        }
        return total;
    }
}
