package io.kplane.client.workqueue;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** A {@link WorkQueue} that can also add an item after a delay measured on a {@link Clock}. */
public interface DelayingQueue<T> extends WorkQueue<T> {

    /**
     * Adds {@code item} once {@code delay} has passed. If the item is already waiting for a delay, the
     * earlier due time wins. A delay of zero or less adds it immediately.
     */
    void addAfter(T item, Duration delay);

    /**
     * Adds {@code item} once this queue's clock reaches {@code due} (an instant of {@link #now()}'s
     * time line). If the item is already waiting, the earlier due time wins; a due time not after now
     * adds it immediately. Unlike {@link #addAfter}, the due time does not move when the clock jumps
     * between the caller's reading of the time and this call.
     */
    void addAt(T item, Instant due);

    /** The time on the clock this queue measures its delays with. */
    Instant now();

    static <T> DelayingQueue<T> create(Clock clock) {
        return new DelayingWorkQueue<>(new BasicWorkQueue<>(), clock);
    }
}
