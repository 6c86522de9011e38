package io.kplane.client.workqueue.ratelimiter;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * An overall token bucket shared by all items ({@code qps} refill, {@code burst} capacity), like
 * golang.org/x/time/rate's {@code Reserve().Delay()}: each call takes a token, possibly on credit, and
 * returns how long until that token exists. It keeps no per-item state.
 */
public final class TokenBucketRateLimiter<T> implements RateLimiter<T> {
    private final Clock clock;
    private final double qps;
    private final int burst;
    private double tokens;
    private Instant last;

    public TokenBucketRateLimiter(Clock clock, double qps, int burst) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException("qps must be > 0 and burst >= 1");
        }
        this.clock = clock;
        this.qps = qps;
        this.burst = burst;
        this.tokens = burst;
        this.last = clock.now();
    }

    @Override
    public synchronized Duration when(T item) {
        Instant now = clock.now();
        if (now.isAfter(last)) {
            double elapsedSeconds = Duration.between(last, now).toNanos() / 1e9;
            tokens = Math.min(burst, tokens + elapsedSeconds * qps);
            last = now;
        }
        tokens -= 1;
        if (tokens >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    @Override
    public void forget(T item) {}

    @Override
    public int numRequeues(T item) {
        return 0;
    }
}
