package io.kplane.client.controller;

import io.kplane.client.time.FakeClock;
import io.kplane.client.workqueue.RateLimitingQueue;
import io.kplane.client.workqueue.ratelimiter.ExponentialFailureRateLimiter;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ControllerTest {
    private final FakeClock clock = new FakeClock();
    private final RateLimitingQueue<String> queue = RateLimitingQueue.create(clock,
            new ExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)));

    @Test
    void failuresAreRetriedWithBackoffAndSuccessForgetsTheKey() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Controller controller = Controller.builder().name("test").workers(2).queue(queue).reconciler(key -> {
            if (calls.incrementAndGet() <= 2) {
                throw new IllegalStateException("boom " + calls.get());
            }
            return Result.done();
        }).build();
        controller.start();
        queue.add("ns/a");
        await().until(() -> calls.get() == 1 && clock.pendingTimers() == 1);
        clock.advance(Duration.ofMillis(5));
        await().until(() -> calls.get() == 2 && clock.pendingTimers() == 1);
        assertThat(queue.numRequeues("ns/a")).isEqualTo(2);
        clock.advance(Duration.ofMillis(9));
        assertThat(calls.get()).as("second retry waits 10 ms").isEqualTo(2);
        clock.advance(Duration.ofMillis(1));
        await().until(() -> calls.get() == 3 && queue.numRequeues("ns/a") == 0);
        controller.stop(Duration.ofSeconds(5));
    }

    @Test
    void requeueAfterAddsTheKeyAgainAfterTheDelay() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Controller controller = Controller.builder().queue(queue).reconciler(key -> {
            seen.add(key);
            return seen.size() == 1 ? Result.requeueAfter(Duration.ofMinutes(1)) : Result.done();
        }).build();
        controller.start();
        queue.add("k");
        await().until(() -> seen.size() == 1 && clock.pendingTimers() == 1);
        clock.advance(Duration.ofSeconds(59));
        assertThat(seen).hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        await().until(() -> seen.size() == 2);
        controller.stop(Duration.ofSeconds(5));
    }

    @Test
    void aKeyIsNeverReconciledByTwoWorkersAtOnce() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        Controller controller = Controller.builder().workers(4).queue(queue).reconciler(key -> {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            for (int i = 0; i < 1000; i++) {
                Thread.onSpinWait();
            }
            inFlight.decrementAndGet();
            calls.incrementAndGet();
            return Result.done();
        }).build();
        controller.start();
        for (int i = 0; i < 2000; i++) {
            queue.add("same");
        }
        await().until(() -> queue.len() == 0 && inFlight.get() == 0);
        controller.stop(Duration.ofSeconds(5));
        assertThat(maxInFlight.get()).isEqualTo(1);
    }

    @Test
    void builderNeedsAReconcilerAndAQueue() {
        assertThatThrownBy(() -> Controller.builder().queue(queue).build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Controller.builder().reconciler(k -> Result.done()).build())
                .isInstanceOf(IllegalStateException.class);
    }
}
