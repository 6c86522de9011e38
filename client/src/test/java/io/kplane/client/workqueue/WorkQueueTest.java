package io.kplane.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    @Test
    void deduplicatesItemsWaitingToBeProcessed() throws Exception {
        WorkQueue<String> q = WorkQueue.create();
        q.add("a");
        q.add("b");
        q.add("a");
        assertThat(q.len()).isEqualTo(2);
        assertThat(q.get()).contains("a");
        assertThat(q.get()).contains("b");
        assertThat(q.len()).isZero();
    }

    @Test
    void itemAddedWhileProcessingIsRequeuedOnceAfterDone() throws Exception {
        WorkQueue<String> q = WorkQueue.create();
        q.add("a");
        assertThat(q.get()).contains("a");
        q.add("a");
        q.add("a");
        assertThat(q.len())
                .as("never handed to a second worker while processing")
                .isZero();
        q.done("a");
        assertThat(q.len()).isEqualTo(1);
        assertThat(q.get()).contains("a");
        q.done("a");
        assertThat(q.len()).isZero();
    }

    @Test
    void fifoAcrossItems() throws Exception {
        WorkQueue<Integer> q = WorkQueue.create();
        for (int i = 0; i < 5; i++) {
            q.add(i);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(q.get()).contains(i);
        }
    }

    @Test
    void shutDownHandsOutRemainingItemsThenEmpty() throws Exception {
        WorkQueue<String> q = WorkQueue.create();
        q.add("a");
        q.shutDown();
        q.add("b");
        assertThat(q.get()).contains("a");
        assertThat(q.get()).isEmpty();
        assertThat(q.isShuttingDown()).isTrue();
    }

    @Test
    void shutDownWakesBlockedGetters() {
        WorkQueue<String> q = WorkQueue.create();
        CompletableFuture<Object> got = CompletableFuture.supplyAsync(() -> {
            try {
                return q.get();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        q.shutDown();
        assertThat(got).succeedsWithin(Duration.ofSeconds(5)).isEqualTo(java.util.Optional.empty());
    }

    @Test
    void shutDownWithDrainWaitsForItemsInProcessing() throws Exception {
        WorkQueue<String> q = WorkQueue.create();
        q.add("a");
        assertThat(q.get()).contains("a");
        CompletableFuture<Void> drained = CompletableFuture.runAsync(() -> {
            try {
                q.shutDownWithDrain();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(30, TimeUnit.SECONDS).until(q::isShuttingDown);
        assertThat(drained).isNotDone();
        q.done("a");
        assertThat(drained).succeedsWithin(Duration.ofSeconds(5));
    }
}
