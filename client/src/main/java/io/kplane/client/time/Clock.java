package io.kplane.client.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;

/**
 * The time source every kplane client component uses, so tests can move time instead of waiting.
 *
 * <p>{@link #now()} reads the time; {@link #schedule(Duration, Runnable)} runs work after a delay
 * measured on this clock. {@link SystemClock} uses the wall clock and a timer thread;
 * {@link FakeClock} fires due timers only when a test calls {@link FakeClock#advance(Duration)}.
 */
public interface Clock {

    Instant now();

    /** Runs {@code task} once {@code delay} has passed on this clock. A delay of zero or less runs it soon. */
    Timer schedule(Duration delay, Runnable task);

    /** Blocks the calling thread until {@code delay} has passed on this clock. */
    default void sleep(Duration delay) throws InterruptedException {
        if (delay.isZero() || delay.isNegative()) {
            return;
        }
        CountDownLatch latch = new CountDownLatch(1);
        Timer timer = schedule(delay, latch::countDown);
        try {
            latch.await();
        } finally {
            timer.cancel();
        }
    }

    default Duration since(Instant then) {
        return Duration.between(then, now());
    }

    /** A view for code that wants a {@link java.time.Clock} (cron libraries, java.time APIs). */
    default java.time.Clock asJavaClock() {
        Clock self = this;
        return new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                throw new UnsupportedOperationException("kplane clocks are UTC");
            }

            @Override
            public Instant instant() {
                return self.now();
            }
        };
    }

    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /** A scheduled task; cancelling one that already ran does nothing. */
    interface Timer {
        /** @return true if the task had not run yet and now never will */
        boolean cancel();
    }
}
