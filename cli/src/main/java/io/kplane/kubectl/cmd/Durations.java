package io.kplane.kubectl.cmd;

import io.kplane.api.util.GoDuration;
import io.kplane.kubectl.CliException;
import java.time.Duration;

/** kubectl's duration flags: Go durations ({@link GoDuration}), as a one-line CLI error when invalid. */
final class Durations {

    private Durations() {}

    /** {@code --timeout}, {@code --pod-running-timeout}: a Go duration ({@code 30s}, {@code 1m30s}). */
    static Duration parse(String text) {
        try {
            return GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CliException("error: invalid duration \"" + text + "\": " + e.getMessage());
        }
    }

    /**
     * {@code --request-timeout}: like kubectl (client-go's clientcmd), a bare integer is seconds
     * ({@code 10}); anything else is a Go duration.
     */
    static Duration requestTimeout(String text) {
        if (text.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(text));
        }
        return parse(text);
    }
}
