package io.kplane.client.workqueue;

import io.kplane.client.time.ActivityTracker;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The de-duplicating queue: {@code dirty} holds items that need processing, {@code processing} those
 * handed to a worker. An item in both is re-queued by {@link #done}, never handed out twice at once.
 */
final class BasicWorkQueue<T> implements WorkQueue<T> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    private final Set<T> dirty = new HashSet<>();
    private final Set<T> processing = new HashSet<>();
    private boolean shuttingDown;
    private final io.kplane.client.lens.QueueObserver observer;

    BasicWorkQueue() {
        this(io.kplane.client.lens.QueueObserver.NOOP);
    }

    BasicWorkQueue(io.kplane.client.lens.QueueObserver observer) {
        this.observer = observer;
    }
    /** What this queue has reported to the process's {@link ActivityTracker}: queued plus processing. */
    private long counted;

    @Override
    public void add(T item) {
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            if (!dirty.add(item)) {
                if (observer.enabled()) {
                    observer.added(String.valueOf(item), false);
                }
                return;
            }
            if (processing.contains(item)) {
                if (observer.enabled()) {
                    observer.added(String.valueOf(item), false);
                }
                return;
            }
            queue.addLast(item);
            if (observer.enabled()) {
                observer.added(String.valueOf(item), true);
            }
            changed.signal();
            recount();
        } finally {
            lock.unlock();
        }
    }

    /** Reports this queue's work to the tracker; called with the lock held after each change. */
    private void recount() {
        long now = shuttingDown ? 0 : queue.size() + processing.size();
        if (now != counted) {
            ActivityTracker.add(now - counted);
            counted = now;
        }
    }

    @Override
    public int len() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty() && !shuttingDown) {
                changed.await();
            }
            if (queue.isEmpty()) {
                return Optional.empty();
            }
            T item = queue.removeFirst();
            processing.add(item);
            dirty.remove(item);
            if (observer.enabled()) {
                observer.got(String.valueOf(item));
            }
            recount();
            return Optional.of(item);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void done(T item) {
        lock.lock();
        try {
            processing.remove(item);
            if (observer.enabled()) {
                observer.done(String.valueOf(item), dirty.contains(item));
            }
            if (dirty.contains(item)) {
                queue.addLast(item);
                changed.signal();
            } else if (processing.isEmpty()) {
                changed.signalAll();
            }
            recount();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            shuttingDown = true;
            changed.signalAll();
            recount();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDownWithDrain() throws InterruptedException {
        lock.lock();
        try {
            shuttingDown = true;
            changed.signalAll();
            recount();
            while (!processing.isEmpty()) {
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isShuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }
}
