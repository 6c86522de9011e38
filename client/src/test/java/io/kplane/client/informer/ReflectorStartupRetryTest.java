package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.KubeList;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A reflector that has never listed retries at the fixed start-up interval while its start-up window
 * lasts, and with the doubling back-off after it (or after its first list): the wait between an API
 * server's arrival and a starting component's first list is one interval, not a doubled back-off.
 */
class ReflectorStartupRetryTest {
    private static final Duration INITIAL = Duration.ofMillis(100);
    private static final Duration MAX = Duration.ofSeconds(2);

    @Test
    void neverListedRetriesAtTheStartupIntervalWithinTheWindow() throws Exception {
        List<Duration> waits = waitsBeforeTheFirstList(
                8,
                ReflectorOptions.DEFAULT
                        .withBackoff(INITIAL, MAX)
                        .withStartupRetry(Duration.ofMillis(200), Duration.ofSeconds(20)));
        assertThat(waits).hasSize(8).allMatch(d -> d.equals(Duration.ofMillis(200)));
    }

    @Test
    void afterTheWindowTheDoublingBackoffApplies() throws Exception {
        // 1 s window, 200 ms interval: five retries fill it, then 100, 200, 400 ms (+ up to 20 % jitter)
        List<Duration> waits = waitsBeforeTheFirstList(
                8,
                ReflectorOptions.DEFAULT
                        .withBackoff(INITIAL, MAX)
                        .withStartupRetry(Duration.ofMillis(200), Duration.ofSeconds(1)));
        assertThat(waits.subList(0, 5)).allMatch(d -> d.equals(Duration.ofMillis(200)));
        assertThat(waits.get(5)).isBetween(Duration.ofMillis(100), Duration.ofMillis(120));
        assertThat(waits.get(6)).isBetween(Duration.ofMillis(200), Duration.ofMillis(240));
        assertThat(waits.get(7)).isBetween(Duration.ofMillis(400), Duration.ofMillis(480));
    }

    @Test
    void withoutAStartupRetryTheBackoffDoublesFromTheFirstFailure() throws Exception {
        List<Duration> waits = waitsBeforeTheFirstList(4, ReflectorOptions.DEFAULT.withBackoff(INITIAL, MAX));
        assertThat(waits.get(0)).isBetween(Duration.ofMillis(100), Duration.ofMillis(120));
        assertThat(waits.get(3)).isBetween(Duration.ofMillis(800), Duration.ofMillis(960));
    }

    /** Runs a reflector whose first {@code failures} lists cannot reach the server; the waits between them. */
    private static List<Duration> waitsBeforeTheFirstList(int failures, ReflectorOptions options) throws Exception {
        FakeListerWatcher server = new FakeListerWatcher();
        server.put("p", Map.of());
        AtomicInteger attempts = new AtomicInteger();
        ListerWatcher<Pod> away = new ListerWatcher<>() {
            @Override
            public KubeList<Pod> list(ListOptions o) {
                if (attempts.incrementAndGet() <= failures) {
                    throw new ApiConnectionException("fake://list", new IOException("connection refused"));
                }
                return server.list(o);
            }

            @Override
            public WatchStream<Pod> watch(ListOptions o) {
                return server.watch(o);
            }
        };
        RecordingClock clock = new RecordingClock();
        Reflector<Pod> reflector = new Reflector<>("startup", away, new NoStore(), clock, options);
        Thread runner = new Thread(reflector::run, "reflector-under-test");
        runner.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> reflector.listCount() == 1);
        } finally {
            reflector.stop();
            runner.join(10_000);
        }
        return List.copyOf(clock.sleeps);
    }

    /** Time moves only by the reflector's own sleeps, which return at once and are recorded. */
    private static final class RecordingClock implements Clock {
        private final FakeClock time = new FakeClock();
        final List<Duration> sleeps = new CopyOnWriteArrayList<>();

        @Override
        public java.time.Instant now() {
            return time.now();
        }

        @Override
        public Timer schedule(Duration delay, Runnable task) {
            return time.schedule(delay, task);
        }

        @Override
        public void sleep(Duration delay) {
            sleeps.add(delay);
            time.advance(delay);
        }
    }

    private static final class NoStore implements ReflectorStore<Pod> {
        @Override
        public void add(Pod obj) {}

        @Override
        public void update(Pod obj) {}

        @Override
        public void delete(Pod obj) {}

        @Override
        public void replace(List<Pod> objects, String resourceVersion) {}
    }
}
