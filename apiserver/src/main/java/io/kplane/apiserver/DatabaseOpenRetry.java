package io.kplane.apiserver;

import java.time.Duration;

/**
 * When {@link ApiServerMain} tries again to open its database at start.
 *
 * <p>During a start window the attempts come at a short fixed interval: the API server and its
 * PostgreSQL start together (the launcher starts every component at once) and whichever is first, the
 * API server should serve within one interval of the database accepting. A doubling back-off (200, 400,
 * 800, 1,600 ms) had it wait up to 1.6 s after PostgreSQL was ready on a fresh state directory. An
 * attempt is one connection to a local server, cheap enough to make ten times a second. After the
 * window, a database that is still away is an outage rather than a start: the back-off doubles from
 * twice the interval up to {@link #MAX} (as client-go's reflectors do after their own start-up retry,
 * {@code ReflectorOptions.withStartupRetry}).
 */
final class DatabaseOpenRetry {
    static final Duration INTERVAL = Duration.ofMillis(100);
    static final Duration WINDOW = Duration.ofSeconds(30);
    static final Duration MAX = Duration.ofSeconds(5);

    private final Duration interval;
    private final Duration window;
    private final Duration max;
    private Duration backoff;

    DatabaseOpenRetry() {
        this(INTERVAL, WINDOW, MAX);
    }

    DatabaseOpenRetry(Duration interval, Duration window, Duration max) {
        this.interval = interval;
        this.window = window;
        this.max = max;
        this.backoff = interval;
    }

    /** The pause before the next attempt, {@code sinceStart} after the first attempt began. */
    Duration next(Duration sinceStart) {
        if (sinceStart.compareTo(window) < 0) {
            return interval;
        }
        Duration doubled = backoff.multipliedBy(2);
        backoff = doubled.compareTo(max) > 0 ? max : doubled;
        return backoff;
    }

    /** True while attempts come at the fixed interval (one log line per distinct reason, not per attempt). */
    boolean inStartWindow(Duration sinceStart) {
        return sinceStart.compareTo(window) < 0;
    }
}
