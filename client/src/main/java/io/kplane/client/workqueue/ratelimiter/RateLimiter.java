package io.kplane.client.workqueue.ratelimiter;

import java.time.Duration;

/** Decides how long an item waits before it is retried. */
public interface RateLimiter<T> {

    /** The delay before {@code item} may be processed again; records one more requeue. */
    Duration when(T item);

    /** Forgets {@code item}'s history (call when it was processed successfully). */
    void forget(T item);

    /** Requeues recorded for {@code item} since it was last forgotten. */
    int numRequeues(T item);
}
