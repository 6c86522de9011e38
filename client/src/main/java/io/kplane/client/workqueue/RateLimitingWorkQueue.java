package io.kplane.client.workqueue;

import io.kplane.client.workqueue.ratelimiter.RateLimiter;

import java.time.Duration;

/** Wraps a {@link DelayingQueue}: {@code addRateLimited} is {@code addAfter(item, limiter.when(item))}. */
final class RateLimitingWorkQueue<T> extends ForwardingWorkQueue<T, DelayingQueue<T>> implements RateLimitingQueue<T> {
    private final RateLimiter<T> limiter;

    RateLimitingWorkQueue(DelayingQueue<T> queue, RateLimiter<T> limiter) {
        super(queue);
        this.limiter = limiter;
    }

    @Override
    public void addRateLimited(T item) {
        delegate.addAfter(item, limiter.when(item));
    }

    @Override
    public void forget(T item) {
        limiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return limiter.numRequeues(item);
    }

    @Override
    public void addAfter(T item, Duration delay) {
        delegate.addAfter(item, delay);
    }
}
