package io.kplane.client.workqueue;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Wraps a {@link WorkQueue}: delayed items wait in a heap ordered by due time, and one clock timer,
 * set for the earliest due time, moves every due item into the queue.
 */
final class DelayingWorkQueue<T> extends ForwardingWorkQueue<T, WorkQueue<T>> implements DelayingQueue<T> {
    private final Clock clock;
    private final PriorityQueue<Waiting<T>> waiting = new PriorityQueue<>();
    private final Map<T, Waiting<T>> waitingByItem = new HashMap<>();
    private long sequence;
    private Clock.Timer timer;
    private Instant timerDue;

    private final io.kplane.client.lens.QueueObserver observer;

    DelayingWorkQueue(WorkQueue<T> queue, Clock clock) {
        this(queue, clock, io.kplane.client.lens.QueueObserver.NOOP);
    }

    DelayingWorkQueue(WorkQueue<T> queue, Clock clock, io.kplane.client.lens.QueueObserver observer) {
        super(queue);
        this.clock = clock;
        this.observer = observer;
    }

    @Override
    public void addAfter(T item, Duration delay) {
        if (delegate.isShuttingDown()) {
            return;
        }
        if ((delay.isZero() || delay.isNegative())) {
            delegate.add(item);
            return;
        }
        synchronized (this) {
            addWaiting(item, delay, clock.now().plus(delay));
        }
    }

    @Override
    public void addAt(T item, Instant due) {
        if (delegate.isShuttingDown()) {
            return;
        }
        Duration delay;
        synchronized (this) {
            delay = Duration.between(clock.now(), due);
            if (!delay.isNegative() && !delay.isZero()) {
                addWaiting(item, delay, due);
                return;
            }
        }
        delegate.add(item);
    }

    @Override
    public Instant now() {
        return clock.now();
    }

    /** Puts {@code item} in the heap for {@code due} unless it already waits for an earlier time. Caller holds the monitor. */
    private void addWaiting(T item, Duration delay, Instant due) {
        Waiting<T> existing = waitingByItem.get(item);
        if (existing != null) {
            if (!due.isBefore(existing.due)) {
                if (observer.enabled()) {
                    observer.addedAfter(String.valueOf(item), delay, due, false);
                }
                return;
            }
            waiting.remove(existing);
        }
        Waiting<T> entry = new Waiting<>(item, due, sequence++);
        waiting.add(entry);
        waitingByItem.put(item, entry);
        if (observer.enabled()) {
            observer.addedAfter(String.valueOf(item), delay, due, true);
        }
        armTimer();
    }

    /** Makes sure a timer is set for the earliest due time. Caller holds the monitor. */
    private void armTimer() {
        Waiting<T> first = waiting.peek();
        if (first == null) {
            return;
        }
        if (timer != null && timerDue != null && !timerDue.isAfter(first.due)) {
            return;
        }
        if (timer != null) {
            timer.cancel();
        }
        timerDue = first.due;
        timer = clock.schedule(Duration.between(clock.now(), first.due), this::releaseDue);
    }

    private void releaseDue() {
        java.util.List<T> ready = new java.util.ArrayList<>();
        synchronized (this) {
            timer = null;
            timerDue = null;
            Instant now = clock.now();
            while (!waiting.isEmpty() && !waiting.peek().due.isAfter(now)) {
                Waiting<T> entry = waiting.poll();
                waitingByItem.remove(entry.item);
                ready.add(entry.item);
            }
            if (!delegate.isShuttingDown()) {
                armTimer();
            }
        }
        if (observer.enabled()) {
            ready.forEach(item -> observer.released(String.valueOf(item), () -> delegate.add(item)));
        } else {
            ready.forEach(delegate::add);
        }
    }

    /** Items still waiting for their delay (for tests and metrics). */
    synchronized int waitingCount() {
        return waiting.size();
    }

    @Override
    public void shutDown() {
        super.shutDown();
        stopTimer();
    }

    @Override
    public void shutDownWithDrain() throws InterruptedException {
        stopTimer();
        super.shutDownWithDrain();
    }

    private synchronized void stopTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
            timerDue = null;
        }
        waiting.clear();
        waitingByItem.clear();
    }

    private record Waiting<T>(T item, Instant due, long seq) implements Comparable<Waiting<T>> {
        @Override
        public int compareTo(Waiting<T> other) {
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(seq, other.seq);
        }
    }
}
