package io.kplane.client.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kplane.client.time.FakeClock;
import io.kplane.client.workqueue.RateLimitingQueue;
import io.kplane.client.workqueue.ratelimiter.ExponentialFailureRateLimiter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ControllerTest {
    private final FakeClock clock = new FakeClock();
    private final RateLimitingQueue<String> queue = RateLimitingQueue.create(
            clock, new ExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)));

    @Test
    void failuresAreRetriedWithBackoffAndSuccessForgetsTheKey() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Controller controller = Controller.builder()
                .name("test")
                .workers(2)
                .queue(queue)
                .reconciler(key -> {
                    if (calls.incrementAndGet() <= 2) {
                        throw new IllegalStateException("boom " + calls.get());
                    }
                    return Result.done();
                })
                .build();
        controller.start();
        queue.add("ns/a");
        await().until(() -> calls.get() == 1 && clock.pendingTimers() == 1);
        clock.advance(Duration.ofMillis(5));
        await().until(() -> calls.get() == 2 && clock.pendingTimers() == 1);
        assertThat(queue.numRequeues("ns/a")).isEqualTo(2);
        clock.advance(Duration.ofMillis(9));
        // the fake clock fires due timers inside advance(): the retry's timer still pending after 9 ms
        // proves it was not due, so no third call can be on its way
        assertThat(clock.pendingTimers()).as("second retry waits 10 ms").isEqualTo(1);
        assertThat(calls.get()).isEqualTo(2);
        clock.advance(Duration.ofMillis(1));
        await().until(() -> calls.get() == 3 && queue.numRequeues("ns/a") == 0);
        controller.stop(Duration.ofSeconds(5));
    }

    @Test
    void requeueAfterAddsTheKeyAgainAfterTheDelay() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Controller controller = Controller.builder()
                .queue(queue)
                .reconciler(key -> {
                    seen.add(key);
                    return seen.size() == 1 ? Result.requeueAfter(Duration.ofMinutes(1)) : Result.done();
                })
                .build();
        controller.start();
        queue.add("k");
        await().until(() -> seen.size() == 1 && clock.pendingTimers() == 1);
        clock.advance(Duration.ofSeconds(59));
        assertThat(clock.pendingTimers())
                .as("the requeue is not due before a minute")
                .isEqualTo(1);
        assertThat(seen).hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        await().until(() -> seen.size() == 2);
        controller.stop(Duration.ofSeconds(5));
    }

    @Test
    void aClockJumpDuringTheSyncDoesNotPushItsRequeueBack() throws Exception {
        // A CronJob synced at 00:59:00 asks to be synced again at its schedule, 01:00:00; while that
        // sync runs, the cluster clock is set to 00:59:58. The requeue is due 2 s later, not 60.
        clock.setTime(java.time.Instant.parse("2026-12-01T00:59:00Z"));
        java.time.Instant schedule = java.time.Instant.parse("2026-12-01T01:00:00Z");
        List<java.time.Instant> syncedAt = new CopyOnWriteArrayList<>();
        Controller controller = Controller.builder()
                .queue(queue)
                .reconciler(key -> {
                    java.time.Instant now = clock.now();
                    syncedAt.add(now);
                    if (syncedAt.size() == 1) {
                        clock.setTime(java.time.Instant.parse("2026-12-01T00:59:58Z")); // the jump, mid-sync
                    }
                    return now.isBefore(schedule)
                            ? Result.requeueAfter(Duration.between(now, schedule))
                            : Result.done();
                })
                .build();
        queue.add("default/nightly");
        assertThat(controller.processNextItem()).isTrue();
        assertThat(queue.len()).as("not due yet").isZero();

        clock.advance(Duration.ofSeconds(2));
        assertThat(queue.len()).as("due at 01:00:00 cluster time").isEqualTo(1);
        assertThat(controller.processNextItem()).isTrue();
        assertThat(syncedAt).containsExactly(java.time.Instant.parse("2026-12-01T00:59:00Z"), schedule);
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void requeueAfterRunsFromTheSyncsStartSoALongSyncDoesNotDelayIt() throws Exception {
        Controller controller = Controller.builder()
                .queue(queue)
                .reconciler(key -> {
                    clock.advance(Duration.ofSeconds(3)); // a sync that takes 3 s
                    return Result.requeueAfter(Duration.ofSeconds(10));
                })
                .build();
        queue.add("k");
        assertThat(controller.processNextItem()).isTrue();
        clock.advance(Duration.ofSeconds(6));
        assertThat(queue.len()).as("not before 10 s from the sync's start").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(queue.len()).as("10 s after the sync started").isEqualTo(1);
    }

    @Test
    void aKeyIsNeverReconciledByTwoWorkersAtOnce() throws Exception {
        AtomicInteger sameInFlight = new AtomicInteger();
        AtomicInteger maxSameInFlight = new AtomicInteger();
        AtomicInteger sameCalls = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        List<String> others = new CopyOnWriteArrayList<>();
        Controller controller = Controller.builder()
                .workers(4)
                .queue(queue)
                .reconciler(key -> {
                    if (!key.equals("same")) {
                        others.add(key);
                        return Result.done();
                    }
                    maxSameInFlight.accumulateAndGet(sameInFlight.incrementAndGet(), Math::max);
                    try {
                        if (sameCalls.incrementAndGet() == 1) {
                            release.await(30, TimeUnit.SECONDS);
                        }
                    } finally {
                        sameInFlight.decrementAndGet();
                    }
                    return Result.done();
                })
                .build();
        controller.start();
        queue.add("same");
        await().until(() -> sameInFlight.get() == 1);
        // "same" is added again while in flight, then "other" behind it: three workers are idle, and the
        // queue is FIFO, so once "other" has been reconciled a second "same" would have been handed out
        queue.add("same");
        queue.add("other");
        await().until(() -> others.contains("other"));
        assertThat(sameCalls.get()).as("'same' started again while in flight").isEqualTo(1);
        release.countDown();
        // the re-add was kept and runs once the first reconcile has finished
        await().until(() -> sameCalls.get() == 2 && sameInFlight.get() == 0);
        controller.stop(Duration.ofSeconds(5));
        assertThat(maxSameInFlight.get()).isEqualTo(1);
    }

    @Test
    void builderNeedsAReconcilerAndAQueue() {
        assertThatThrownBy(() -> Controller.builder().queue(queue).build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() ->
                        Controller.builder().reconciler(k -> Result.done()).build())
                .isInstanceOf(IllegalStateException.class);
    }
}
