package io.kplane.client.workqueue;

import io.kplane.client.workqueue.ratelimiter.RateLimiter;
import java.time.Duration;
import java.time.Instant;

/** Wraps a {@link DelayingQueue}: {@code addRateLimited} is {@code addAfter(item, limiter.when(item))}. */
final class RateLimitingWorkQueue<T> extends ForwardingWorkQueue<T, DelayingQueue<T>> implements RateLimitingQueue<T> {
    private final RateLimiter<T> limiter;

    private final io.kplane.client.lens.QueueObserver observer;

    RateLimitingWorkQueue(DelayingQueue<T> queue, RateLimiter<T> limiter) {
        this(queue, limiter, io.kplane.client.lens.QueueObserver.NOOP);
    }

    RateLimitingWorkQueue(
            DelayingQueue<T> queue, RateLimiter<T> limiter, io.kplane.client.lens.QueueObserver observer) {
        super(queue);
        this.limiter = limiter;
        this.observer = observer;
    }

    @Override
    public void addRateLimited(T item) {
        java.time.Duration backoff = limiter.when(item);
        if (observer.enabled()) {
            observer.rateLimited(String.valueOf(item), backoff, limiter.numRequeues(item));
        }
        delegate.addAfter(item, backoff);
    }

    @Override
    public void forget(T item) {
        limiter.forget(item);
        if (observer.enabled()) {
            observer.forgot(String.valueOf(item));
        }
    }

    @Override
    public int numRequeues(T item) {
        return limiter.numRequeues(item);
    }

    @Override
    public void addAfter(T item, Duration delay) {
        delegate.addAfter(item, delay);
    }

    @Override
    public void addAt(T item, Instant due) {
        delegate.addAt(item, due);
    }

    @Override
    public Instant now() {
        return delegate.now();
    }
}
