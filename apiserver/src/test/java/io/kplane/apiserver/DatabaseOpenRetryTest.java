package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API server's database retry: a short fixed interval while starting, then a capped doubling back-off. */
class DatabaseOpenRetryTest {
    @Test
    void retriesAtTheFixedIntervalDuringTheStartWindow() {
        DatabaseOpenRetry retry = new DatabaseOpenRetry();
        for (long ms = 0; ms < 30_000; ms += 100) {
            assertThat(retry.next(Duration.ofMillis(ms))).isEqualTo(Duration.ofMillis(100));
            assertThat(retry.inStartWindow(Duration.ofMillis(ms))).isTrue();
        }
    }

    @Test
    void afterTheWindowTheBackOffDoublesUpToItsCap() {
        DatabaseOpenRetry retry =
                new DatabaseOpenRetry(Duration.ofMillis(100), Duration.ofSeconds(30), Duration.ofSeconds(5));
        List<Long> pauses = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            pauses.add(retry.next(Duration.ofSeconds(31 + i)).toMillis());
        }
        assertThat(pauses).containsExactly(200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L);
        assertThat(retry.inStartWindow(Duration.ofSeconds(30))).isFalse();
    }
}
