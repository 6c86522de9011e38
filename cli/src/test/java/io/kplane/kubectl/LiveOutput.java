package io.kplane.kubectl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

/** What a running process has written so far (read on a daemon thread), for waiting on its output. */
final class LiveOutput {
    private final StringBuffer text = new StringBuffer();

    LiveOutput(InputStream in) {
        Thread t = new Thread(
                () -> {
                    byte[] chunk = new byte[8192];
                    try (in) {
                        int n;
                        while ((n = in.read(chunk)) >= 0) {
                            text.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                },
                "live-output");
        t.setDaemon(true);
        t.start();
    }

    String text() {
        return text.toString();
    }

    /** Waits (up to 60 s, under load) until the output so far satisfies {@code condition}; returns it. */
    String await(String description, Predicate<String> condition) {
        org.awaitility.Awaitility.await()
                .alias(description + "; output so far: " + text)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> condition.test(text.toString()));
        return text.toString();
    }
}
