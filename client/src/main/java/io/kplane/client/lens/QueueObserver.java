package io.kplane.client.lens;

import java.time.Duration;
import java.time.Instant;

/**
 * What a workqueue reports (as client-go's queue metrics provider, plus what the lens shows): every
 * call happens outside the queue's lock-free fast path only when the lens is on ({@link #NOOP} otherwise).
 */
public interface QueueObserver {
    QueueObserver NOOP = new QueueObserver() {};

    default boolean enabled() {
        return false;
    }

    /** add(item): {@code queued} false when it was already waiting (coalesced) or is being processed. */
    default void added(String item, boolean queued) {}

    /** addAfter(item, delay): waits until {@code due}; {@code kept} false when an earlier due time won. */
    default void addedAfter(String item, Duration delay, Instant due, boolean kept) {}

    /** The delaying queue's timer moves a due item into the queue by running {@code add}. */
    default void released(String item, Runnable add) {
        add.run();
    }

    /** addRateLimited(item): the back-off the rate limiter computed and the retry number. */
    default void rateLimited(String item, Duration backoff, int retries) {}

    /** A worker took the item (queue → processing). */
    default void got(String item) {}

    /** The worker finished the item; {@code requeued} when it was added again meanwhile. */
    default void done(String item, boolean requeued) {}

    /** forget(item): its failure history is cleared. */
    default void forgot(String item) {}

    /** The queue's current length, sampled for gauges. */
    default void depth(int depth) {}
}
