package io.kplane.kubelet.pod;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CrashLoopBackoffTest {
    final CrashLoopBackoff backoff = new CrashLoopBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    @Test
    void firstRestartIsImmediateThenTenSecondsDoublingToFiveMinutes() {
        assertThat(backoff.delay(0)).isZero();
        assertThat(backoff.delay(1)).hasSeconds(10);
        assertThat(backoff.delay(2)).hasSeconds(20);
        assertThat(backoff.delay(3)).hasSeconds(40);
        assertThat(backoff.delay(5)).hasSeconds(160);
        assertThat(backoff.delay(6)).hasSeconds(300);
        assertThat(backoff.delay(60)).hasSeconds(300);
    }

    @Test
    void aLongRunResetsTheBackoff() {
        assertThat(backoff.resets(Duration.ofMinutes(9))).isFalse();
        assertThat(backoff.resets(Duration.ofMinutes(11))).isTrue();
    }
}
