package io.kplane.client.workqueue;

import io.kplane.client.time.Clock;
import java.time.Duration;

/** A {@link WorkQueue} that can also add an item after a delay measured on a {@link Clock}. */
public interface DelayingQueue<T> extends WorkQueue<T> {

    /**
     * Adds {@code item} once {@code delay} has passed. If the item is already waiting for a delay, the
     * earlier due time wins. A delay of zero or less adds it immediately.
     */
    void addAfter(T item, Duration delay);

    static <T> DelayingQueue<T> create(Clock clock) {
        return new DelayingWorkQueue<>(new BasicWorkQueue<>(), clock);
    }
}
