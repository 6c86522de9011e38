package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.FakeClock;
import io.kplane.client.workqueue.DelayingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pod-event batching rule against the delaying queue's contract (an item already waiting keeps
 * the earlier due time; a zero delay adds at once), on a fake clock: a lone finishing pod syncs its
 * Job at once; a burst is synced about once per period, as with upstream's plain
 * {@code AddAfter(key, syncJobBatchPeriod)}.
 */
class PodEventBatchingTest {
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final String JOB = "default/pi";

    private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ContractQueue queue = new ContractQueue(clock);
    private final PodEventBatching batching = new PodEventBatching(PERIOD, clock, queue);

    @Test
    void aLoneFinishingPodSyncsItsJobAtOnce() {
        batching.podFinished(JOB);
        assertThat(queue.dueAt(JOB)).isEqualTo(clock.now());
    }

    @Test
    void otherPodEventsAreBatchedForAPeriodAsUpstream() {
        batching.podEvent(JOB);
        assertThat(queue.dueAt(JOB)).isEqualTo(clock.now().plus(PERIOD));
    }

    @Test
    void finishesInsideTheWindowWaitForItsEndAndThatSyncOpensTheNextWindow() {
        Instant start = clock.now();
        batching.podFinished(JOB);
        queue.syncDue(); // the leading sync
        clock.advance(Duration.ofMillis(300));
        batching.podFinished(JOB);
        assertThat(queue.dueAt(JOB)).isEqualTo(start.plus(PERIOD));
        clock.advance(Duration.ofMillis(700));
        assertThat(queue.syncDue()).isTrue(); // the deferred sync at the window's end
        clock.advance(Duration.ofMillis(10));
        batching.podFinished(JOB);
        assertThat(queue.dueAt(JOB))
                .as("the burst goes on: next window's end")
                .isEqualTo(start.plus(PERIOD.multipliedBy(2)));
    }

    @Test
    void afterAQuietPeriodTheNextFinishLeadsAgain() {
        batching.podFinished(JOB);
        queue.syncDue();
        clock.advance(Duration.ofMillis(1500));
        batching.podFinished(JOB);
        assertThat(queue.dueAt(JOB)).isEqualTo(clock.now());
    }

    @Test
    void aBurstIsSyncedAboutOncePerPeriodLikeUpstream() {
        // 2,000 pods finishing every 5 ms (10 s), as in the Job pipeline benchmark
        int ours = syncsForBurst(() -> batching.podFinished(JOB), queue);
        FakeClock upstreamClock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
        ContractQueue upstreamQueue = new ContractQueue(upstreamClock);
        int upstream = syncsForBurstOn(upstreamClock, () -> upstreamQueue.addAfter(JOB, PERIOD), upstreamQueue);
        assertThat(upstream).isBetween(9, 11);
        assertThat(ours).as("ours %d vs upstream %d", ours, upstream).isBetween(upstream, upstream + 1);
    }

    @Test
    void aDeletedJobIsForgotten() {
        batching.podFinished(JOB);
        assertThat(batching.trackedJobs()).isEqualTo(1);
        batching.forget(JOB);
        assertThat(batching.trackedJobs()).isZero();
    }

    private int syncsForBurst(Runnable event, ContractQueue q) {
        return syncsForBurstOn(clock, event, q);
    }

    private static int syncsForBurstOn(FakeClock c, Runnable event, ContractQueue q) {
        int syncs = 0;
        for (int i = 0; i < 2000; i++) {
            event.run();
            if (q.syncDue()) {
                syncs++;
            }
            c.advance(Duration.ofMillis(5));
            if (q.syncDue()) {
                syncs++;
            }
        }
        c.advance(PERIOD);
        if (q.syncDue()) {
            syncs++;
        }
        return syncs;
    }

    /** The delaying queue's documented contract, with time from the fake clock: just due times. */
    private static final class ContractQueue implements DelayingQueue<String> {
        private final FakeClock clock;
        private final Map<String, Instant> due = new HashMap<>();

        ContractQueue(FakeClock clock) {
            this.clock = clock;
        }

        Instant dueAt(String key) {
            return due.get(key);
        }

        /** Runs the sync of every due key; true if one ran. */
        boolean syncDue() {
            Instant now = clock.now();
            return due.entrySet().removeIf(e -> !e.getValue().isAfter(now));
        }

        @Override
        public void addAfter(String item, Duration delay) {
            Instant at = delay.isNegative() || delay.isZero()
                    ? clock.now()
                    : clock.now().plus(delay);
            due.merge(item, at, (a, b) -> a.isBefore(b) ? a : b);
        }

        @Override
        public void addAt(String item, Instant at) {
            due.merge(item, at, (a, b) -> a.isBefore(b) ? a : b);
        }

        @Override
        public Instant now() {
            return clock.now();
        }

        @Override
        public void add(String item) {
            addAfter(item, Duration.ZERO);
        }

        @Override
        public int len() {
            return due.size();
        }

        @Override
        public Optional<String> get() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void done(String item) {}

        @Override
        public void shutDown() {}

        @Override
        public void shutDownWithDrain() {}

        @Override
        public boolean isShuttingDown() {
            return false;
        }
    }
}
