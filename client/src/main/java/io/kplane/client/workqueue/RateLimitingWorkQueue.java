package io.kplane.client.workqueue;

import io.kplane.client.workqueue.ratelimiter.RateLimiter;

import java.time.Duration;
import java.util.Optional;

/** Wraps a {@link DelayingQueue}: {@code addRateLimited} is {@code addAfter(item, limiter.when(item))}. */
final class RateLimitingWorkQueue<T> implements RateLimitingQueue<T> {
    private final DelayingQueue<T> queue;
    private final RateLimiter<T> limiter;

    RateLimitingWorkQueue(DelayingQueue<T> queue, RateLimiter<T> limiter) {
        this.queue = queue;
        this.limiter = limiter;
    }

    @Override
    public void addRateLimited(T item) {
        queue.addAfter(item, limiter.when(item));
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
        queue.addAfter(item, delay);
    }

    @Override
    public void add(T item) {
        queue.add(item);
    }

    @Override
    public int len() {
        return queue.len();
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        return queue.get();
    }

    @Override
    public void done(T item) {
        queue.done(item);
    }

    @Override
    public void shutDown() {
        queue.shutDown();
    }

    @Override
    public void shutDownWithDrain() throws InterruptedException {
        queue.shutDownWithDrain();
    }

    @Override
    public boolean isShuttingDown() {
        return queue.isShuttingDown();
    }
}
