package io.kplane.client.workqueue;

import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.ratelimiter.RateLimiter;
import io.kplane.client.workqueue.ratelimiter.RateLimiters;

/** A {@link DelayingQueue} whose items back off when they are retried. */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

    /** Adds {@code item} after the delay its rate limiter says (e.g. exponential back-off on failures). */
    void addRateLimited(T item);

    /** Clears the item's failure history: its next {@link #addRateLimited} starts from the base delay. */
    void forget(T item);

    /** How many times the item has been rate-limited since it was last forgotten. */
    int numRequeues(T item);

    /** A queue with client-go's default controller limiter (5 ms doubling to 1000 s, max-of 10 qps / burst 100). */
    static <T> RateLimitingQueue<T> create(Clock clock) {
        return create(clock, RateLimiters.defaultControllerRateLimiter(clock));
    }

    static <T> RateLimitingQueue<T> create(Clock clock, RateLimiter<T> limiter) {
        return new RateLimitingWorkQueue<>(DelayingQueue.create(clock), limiter);
    }

    /**
     * A default-limited queue that reports to the lens under upstream's queue {@code name} (e.g. job,
     * cronjob, ttl_jobs_to_delete): {@code lens.queue(name)}; with the lens off this is {@link #create(Clock)}.
     */
    static <T> RateLimitingQueue<T> create(Clock clock, io.kplane.client.lens.Lens lens, String name) {
        io.kplane.client.lens.QueueObserver observer = lens.queue(name);
        RateLimiter<T> limiter = RateLimiters.defaultControllerRateLimiter(clock);
        return new RateLimitingWorkQueue<>(
                new DelayingWorkQueue<>(new BasicWorkQueue<>(observer), clock, observer), limiter, observer);
    }
}
