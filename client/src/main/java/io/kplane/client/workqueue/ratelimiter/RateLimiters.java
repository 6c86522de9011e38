package io.kplane.client.workqueue.ratelimiter;

import io.kplane.client.time.Clock;
import java.time.Duration;

public final class RateLimiters {
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);
    public static final double DEFAULT_QPS = 10;
    public static final int DEFAULT_BURST = 100;

    private RateLimiters() {}

    /**
     * client-go's {@code DefaultControllerRateLimiter}: per-item exponential back-off from 5 ms doubling to
     * 1000 s, combined (max-of) with an overall token bucket of 10 qps and burst 100.
     */
    public static <T> RateLimiter<T> defaultControllerRateLimiter(Clock clock) {
        return new MaxOfRateLimiter<>(
                new ExponentialFailureRateLimiter<>(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY),
                new TokenBucketRateLimiter<>(clock, DEFAULT_QPS, DEFAULT_BURST));
    }
}
