package io.kplane.client.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UnreachableRetryTest {
    @Test
    void startsShortDoublesAndStopsAtTheRetryPeriod() {
        UnreachableRetry retry = new UnreachableRetry(Duration.ofSeconds(2));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(100));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(200));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(400));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(800));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(1600));
        assertThat(retry.next()).isEqualTo(Duration.ofSeconds(2));
        assertThat(retry.next()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aReachedServerStartsTheNextOutageShortAgain() {
        UnreachableRetry retry = new UnreachableRetry(Duration.ofSeconds(2));
        retry.next();
        retry.next();
        retry.reset();
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void neverLongerThanAShortRetryPeriod() {
        UnreachableRetry retry = new UnreachableRetry(Duration.ofMillis(50));
        assertThat(retry.next()).isEqualTo(Duration.ofMillis(50));
    }
}
