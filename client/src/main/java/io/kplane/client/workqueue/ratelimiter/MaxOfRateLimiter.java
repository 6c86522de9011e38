package io.kplane.client.workqueue.ratelimiter;

import java.time.Duration;
import java.util.List;

/** Asks every limiter and uses the longest delay; requeues are the largest count any limiter keeps. */
public final class MaxOfRateLimiter<T> implements RateLimiter<T> {
    private final List<RateLimiter<T>> limiters;

    @SafeVarargs
    public MaxOfRateLimiter(RateLimiter<T>... limiters) {
        this.limiters = List.of(limiters);
    }

    @Override
    public Duration when(T item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<T> limiter : limiters) {
            Duration d = limiter.when(item);
            if (d.compareTo(longest) > 0) {
                longest = d;
            }
        }
        return longest;
    }

    @Override
    public void forget(T item) {
        limiters.forEach(l -> l.forget(item));
    }

    @Override
    public int numRequeues(T item) {
        int most = 0;
        for (RateLimiter<T> limiter : limiters) {
            most = Math.max(most, limiter.numRequeues(item));
        }
        return most;
    }
}
