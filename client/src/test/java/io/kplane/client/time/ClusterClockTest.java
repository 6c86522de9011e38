package io.kplane.client.time;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.clock.ClusterTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClusterClockTest {
    private final ClusterClock clock = new ClusterClock();

    @AfterEach
    void close() {
        clock.close();
    }

    private static ClusterTime frozenAt(Instant t) {
        return new ClusterTime("Frozen", Instant.now(), t, 0);
    }

    @Test
    void realTimeIsWallTime() throws Exception {
        Instant before = Instant.now();
        assertThat(clock.now()).isBetween(before, Instant.now());
        CountDownLatch fired = new CountDownLatch(1);
        clock.schedule(Duration.ofMillis(50), fired::countDown);
        assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aFrozenClockHoldsTimersUntilAJumpMakesThemDue() throws Exception {
        Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
        clock.update(frozenAt(t0));
        assertThat(clock.now()).isEqualTo(t0);
        AtomicReference<Instant> firedAt = new AtomicReference<>();
        CountDownLatch fired = new CountDownLatch(1);
        clock.schedule(Duration.ofMinutes(5), () -> {
            firedAt.set(clock.now());
            fired.countDown();
        });
        assertThat(fired.await(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(clock.nextDue()).isEqualTo(t0.plus(Duration.ofMinutes(5)));

        clock.update(frozenAt(t0.plus(Duration.ofMinutes(4))));
        assertThat(fired.await(200, TimeUnit.MILLISECONDS)).as("4 of 5 minutes").isFalse();
        clock.update(frozenAt(t0.plus(Duration.ofMinutes(6))));
        assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(firedAt.get()).isEqualTo(t0.plus(Duration.ofMinutes(6)));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> clock.dueTimers() == 0);
    }

    @Test
    void aNewRateReArmsPendingTimers() throws Exception {
        Instant wall = Instant.now();
        clock.update(new ClusterTime("Frozen", wall, wall, 0));
        CountDownLatch fired = new CountDownLatch(1);
        clock.schedule(Duration.ofMinutes(1), fired::countDown); // an hour of wall time at rate 1
        long started = System.nanoTime();
        clock.update(new ClusterTime("Rate", Instant.now(), clock.now(), 600)); // 1 minute = 100 ms
        assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isBetween(Duration.ofMillis(90), Duration.ofSeconds(3));
    }

    @Test
    void sleepFollowsTheClock() throws Exception {
        Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
        clock.update(frozenAt(t0));
        CountDownLatch woke = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                clock.sleep(Duration.ofSeconds(10));
                woke.countDown();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        assertThat(woke.await(200, TimeUnit.MILLISECONDS)).isFalse();
        while (clock.nextDue() == null) {
            Thread.onSpinWait();
        }
        clock.update(frozenAt(t0.plusSeconds(10)));
        assertThat(woke.await(5, TimeUnit.SECONDS)).isTrue();
        sleeper.join(5000);
    }
}
