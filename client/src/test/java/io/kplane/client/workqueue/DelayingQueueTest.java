package io.kplane.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DelayingQueueTest {
    private final FakeClock clock = new FakeClock();
    private final DelayingQueue<String> q = DelayingQueue.create(clock);

    @Test
    void addAfterReleasesItemsInDueTimeOrder() throws Exception {
        q.addAfter("c", Duration.ofMillis(30));
        q.addAfter("a", Duration.ofMillis(10));
        q.addAfter("b", Duration.ofMillis(20));
        assertThat(q.len()).isZero();

        clock.advance(Duration.ofMillis(15));
        assertThat(q.len()).isEqualTo(1);
        assertThat(q.get()).contains("a");

        clock.advance(Duration.ofMillis(100));
        assertThat(q.len()).isEqualTo(2);
        assertThat(q.get()).contains("b");
        assertThat(q.get()).contains("c");
    }

    @Test
    void earlierDueTimeWinsWhenTheSameItemIsDelayedTwice() throws Exception {
        q.addAfter("x", Duration.ofSeconds(100));
        q.addAfter("x", Duration.ofSeconds(10));
        q.addAfter("x", Duration.ofSeconds(50));
        clock.advance(Duration.ofSeconds(10));
        assertThat(q.get()).contains("x");
        q.done("x");
        clock.advance(Duration.ofSeconds(200));
        assertThat(q.len()).as("only one delayed entry existed").isZero();
    }

    @Test
    void nonPositiveDelayAddsImmediately() throws Exception {
        q.addAfter("now", Duration.ZERO);
        q.addAfter("past", Duration.ofSeconds(-1));
        assertThat(q.len()).isEqualTo(2);
    }

    @Test
    void delayedItemIsDeduplicatedWithAQueuedOne() throws Exception {
        q.add("x");
        q.addAfter("x", Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(q.len()).isEqualTo(1);
    }

    @Test
    void shutDownDropsWaitingItems() throws Exception {
        q.addAfter("x", Duration.ofSeconds(1));
        q.shutDown();
        clock.advance(Duration.ofSeconds(2));
        assertThat(q.get()).isEmpty();
    }
}
