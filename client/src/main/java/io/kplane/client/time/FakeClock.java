package io.kplane.client.time;

import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock for tests: time stands still until {@link #advance(Duration)} or {@link #setTime(Instant)}.
 * Advancing fires every timer that becomes due, in due-time order (ties in scheduling order), on
 * the calling thread, with {@link #now()} reading each timer's due time while it runs; timers that
 * those tasks schedule fire too if they fall inside the advanced interval. A timer scheduled with a
 * zero delay fires at the next advance (also {@code advance(Duration.ZERO)}), never inside {@code schedule}.
 */
public final class FakeClock implements Clock {
    private final PriorityQueue<FakeTimer> timers = new PriorityQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private Instant now;

    public FakeClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public FakeClock(Instant start) {
        this.now = start;
    }

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        synchronized (this) {
            Instant due = delay.isNegative() ? now : now.plus(delay);
            FakeTimer timer = new FakeTimer(due, sequence.incrementAndGet(), task);
            timers.add(timer);
            notifyAll();
            return timer;
        }
    }

    public void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time never goes backwards: " + by);
        }
        setTime(now().plus(by));
    }

    public void setTime(Instant target) {
        fireDue(target);
        synchronized (this) {
            if (target.isAfter(now)) {
                now = target;
            }
        }
    }

    private void fireDue(Instant target) {
        while (true) {
            FakeTimer next;
            synchronized (this) {
                next = timers.peek();
                if (next == null || next.due.isAfter(target)) {
                    return;
                }
                timers.poll();
                if (next.due.isAfter(now)) {
                    now = next.due;
                }
                if (next.cancelled) {
                    continue;
                }
                next.fired = true;
            }
            next.task.run();
        }
    }

    /** Number of timers that have not fired or been cancelled. */
    public synchronized int pendingTimers() {
        return (int) timers.stream().filter(t -> !t.cancelled).count();
    }

    /** Blocks until at least {@code count} timers are pending: lets a test wait until a thread is asleep. */
    public synchronized boolean awaitPendingTimers(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pendingTimers() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    private final class FakeTimer implements Timer, Comparable<FakeTimer> {
        final Instant due;
        final long seq;
        final Runnable task;
        boolean cancelled;
        boolean fired;

        FakeTimer(Instant due, long seq, Runnable task) {
            this.due = due;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public boolean cancel() {
            synchronized (FakeClock.this) {
                if (fired || cancelled) {
                    return false;
                }
                cancelled = true;
                return true;
            }
        }

        @Override
        public int compareTo(FakeTimer other) {
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(seq, other.seq);
        }
    }
}
