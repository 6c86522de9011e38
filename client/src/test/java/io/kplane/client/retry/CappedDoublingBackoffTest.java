package io.kplane.client.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CappedDoublingBackoffTest {
    @Test
    void startsShortDoublesAndStopsAtTheCap() {
        CappedDoublingBackoff backoff = new CappedDoublingBackoff(Duration.ofSeconds(2));
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            delays.add(backoff.next().toMillis());
        }
        assertThat(delays).containsExactly(100L, 200L, 400L, 800L, 1600L, 2000L, 2000L);
    }

    @Test
    void aSuccessStartsTheNextOutageShortAgain() {
        CappedDoublingBackoff backoff = new CappedDoublingBackoff(Duration.ofSeconds(2));
        backoff.next();
        backoff.next();
        backoff.reset();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aCapBelowTheFirstStepIsTheDelay() {
        CappedDoublingBackoff backoff = new CappedDoublingBackoff(Duration.ofMillis(50));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(50));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(50));
    }
}
