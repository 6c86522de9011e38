package io.kplane.client.workqueue.ratelimiter;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/** Per-item exponential back-off: {@code base * 2^failures}, capped at {@code max}. */
public final class ExponentialFailureRateLimiter<T> implements RateLimiter<T> {
    private final Duration base;
    private final Duration max;
    private final ConcurrentHashMap<T, Integer> failures = new ConcurrentHashMap<>();

    public ExponentialFailureRateLimiter(Duration base, Duration max) {
        if (base.isNegative() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 <= base <= max, got " + base + ", " + max);
        }
        this.base = base;
        this.max = max;
    }

    @Override
    public Duration when(T item) {
        int exponent = failures.merge(item, 1, Integer::sum) - 1;
        // Past 2^62 every base overflows; the cap applies long before.
        if (exponent >= 62) {
            return max;
        }
        double nanos = base.toNanos() * Math.pow(2, exponent);
        if (nanos >= max.toNanos()) {
            return max;
        }
        return Duration.ofNanos((long) nanos);
    }

    @Override
    public void forget(T item) {
        failures.remove(item);
    }

    @Override
    public int numRequeues(T item) {
        return failures.getOrDefault(item, 0);
    }
}
