package io.kplane.controllers.cronjob;

import io.kplane.client.time.Clock;

import java.time.Duration;
import java.time.Instant;

/**
 * A clock that reads {@code offset} ahead of another. A cronjob-controller process started with
 * {@code --clock-offset} lives that far in the future: tests use it to reach a schedule time
 * without waiting for it. Delays are unaffected.
 */
public final class OffsetClock implements Clock {
    private final Clock delegate;
    private final Duration offset;

    public OffsetClock(Clock delegate, Duration offset) {
        this.delegate = delegate;
        this.offset = offset;
    }

    @Override
    public Instant now() {
        return delegate.now().plus(offset);
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        return delegate.schedule(delay, task);
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        delegate.sleep(delay);
    }
}
