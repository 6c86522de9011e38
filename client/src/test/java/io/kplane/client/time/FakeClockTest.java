package io.kplane.client.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeClockTest {
    @Test
    void advanceFiresDueTimersInOrderWithTheirDueTime() {
        FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
        List<String> fired = new ArrayList<>();
        clock.schedule(Duration.ofSeconds(3), () -> fired.add("3s@" + clock.now()));
        clock.schedule(Duration.ofSeconds(1), () -> {
            fired.add("1s@" + clock.now());
            clock.schedule(Duration.ofSeconds(1), () -> fired.add("nested@" + clock.now()));
        });
        Clock.Timer cancelled = clock.schedule(Duration.ofSeconds(2), () -> fired.add("cancelled"));
        assertThat(cancelled.cancel()).isTrue();
        clock.advance(Duration.ofSeconds(5));
        assertThat(fired)
                .containsExactly("1s@2026-01-01T00:00:01Z", "nested@2026-01-01T00:00:02Z", "3s@2026-01-01T00:00:03Z");
        assertThat(clock.now()).isEqualTo(Instant.parse("2026-01-01T00:00:05Z"));
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void sleepReturnsWhenTheClockIsAdvanced() throws Exception {
        FakeClock clock = new FakeClock();
        Thread sleeper = new Thread(() -> {
            try {
                clock.sleep(Duration.ofHours(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(5))).isTrue();
        clock.advance(Duration.ofHours(1));
        sleeper.join(5000);
        assertThat(sleeper.isAlive()).isFalse();
    }
}
