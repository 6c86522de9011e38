package io.kplane.client.time;

import io.kplane.api.util.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The wall clock. Timers run on one shared daemon thread, so scheduled tasks must be short
 * (they typically just move an item into a queue).
 */
public final class SystemClock implements Clock {
    static final SystemClock INSTANCE = new SystemClock();

    private final ScheduledThreadPoolExecutor timers;

    private SystemClock() {
        timers = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("kplane-clock-timer"));
        timers.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        long nanos = Math.max(0, saturatedNanos(delay));
        ScheduledFuture<?> future = timers.schedule(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        org.slf4j.LoggerFactory.getLogger(SystemClock.class).warn("timer task failed", e);
                    }
                },
                nanos,
                TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        long nanos = saturatedNanos(delay);
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
