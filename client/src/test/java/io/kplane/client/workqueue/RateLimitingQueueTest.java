package io.kplane.client.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.client.time.FakeClock;
import io.kplane.client.workqueue.ratelimiter.ExponentialFailureRateLimiter;
import io.kplane.client.workqueue.ratelimiter.RateLimiter;
import io.kplane.client.workqueue.ratelimiter.RateLimiters;
import io.kplane.client.workqueue.ratelimiter.TokenBucketRateLimiter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitingQueueTest {
    private final FakeClock clock = new FakeClock();

    @Test
    void exponentialBackoffDoublesFromBaseAndForgetResetsIt() {
        RateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1));
        assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(1));
        assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(2));
        assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(4));
        assertThat(limiter.numRequeues("one")).isEqualTo(3);
        assertThat(limiter.when("two")).as("per item").isEqualTo(Duration.ofMillis(1));
        limiter.forget("one");
        assertThat(limiter.numRequeues("one")).isZero();
        assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void defaultLimiterStartsAt5msAndCapsAt1000s() {
        RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);
        assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(10));
        Duration last = Duration.ZERO;
        for (int i = 0; i < 40; i++) {
            last = limiter.when("x");
        }
        assertThat(last).isEqualTo(Duration.ofSeconds(1000));
    }

    @Test
    void tokenBucketAllowsBurstThenPacesAtQps() {
        RateLimiter<String> bucket = new TokenBucketRateLimiter<>(clock, 10, 100);
        for (int i = 0; i < 100; i++) {
            assertThat(bucket.when("item" + i)).isZero();
        }
        assertThat(bucket.when("a")).isEqualTo(Duration.ofMillis(100));
        assertThat(bucket.when("b")).isEqualTo(Duration.ofMillis(200));
        clock.advance(Duration.ofSeconds(10));
        assertThat(bucket.when("c")).as("refilled after waiting").isZero();
    }

    @Test
    void defaultLimiterIsTheMaxOfPerItemBackoffAndTheOverallBucket() {
        RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);
        for (int i = 0; i < 100; i++) {
            limiter.when("burst" + i);
        }
        // bucket empty: the 101st token is 100 ms away, which beats the item's 5 ms back-off
        assertThat(limiter.when("fresh")).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void addRateLimitedWaitsForTheBackoffAndForgetResetsIt() throws Exception {
        RateLimitingQueue<String> q = RateLimitingQueue.create(
                clock, new ExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)));
        q.addRateLimited("x");
        assertThat(q.len()).isZero();
        clock.advance(Duration.ofMillis(4));
        assertThat(q.len()).isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(q.get()).contains("x");
        q.done("x");

        q.addRateLimited("x");
        clock.advance(Duration.ofMillis(9));
        assertThat(q.len()).as("second failure waits 10 ms").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(q.get()).contains("x");
        q.done("x");
        assertThat(q.numRequeues("x")).isEqualTo(2);

        q.forget("x");
        assertThat(q.numRequeues("x")).isZero();
        q.addRateLimited("x");
        clock.advance(Duration.ofMillis(5));
        assertThat(q.len()).as("back to the base delay").isEqualTo(1);
    }
}
