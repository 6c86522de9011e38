package io.kplane.client.time;

import io.kplane.api.clock.ClusterTime;
import io.kplane.api.util.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster clock as one process sees it: cluster time computed from the {@code cluster} Clock
 * object's anchors ({@link ClusterTime}), and timers due at a <em>cluster</em> instant. Every pending
 * timer is re-armed when the clock changes: a jump forward fires those now due, a new rate shortens or
 * stretches the wall wait, a frozen clock holds them until time moves. So delaying work queues, pod
 * back-offs and periodic loops follow the cluster clock without knowing about it.
 *
 * <p>Real time costs what {@link SystemClock} costs: {@link #now()} reads the wall clock without
 * arithmetic, and a timer is one executor task plus a set entry. {@link ClusterClockFollower} keeps an
 * instance in step with the API server.
 */
public final class ClusterClock implements Clock {
    private static final Logger log = LoggerFactory.getLogger(ClusterClock.class);
    private static final ThreadLocal<Boolean> WOKEN = new ThreadLocal<>();

    /** Told after each change of the clock, on the thread that applied it. */
    public interface ChangeListener {
        /** @param jumped true when the cluster time moved discontinuously (set, advance), not just its rate */
        void clockChanged(ClusterTime before, ClusterTime after, boolean jumped);
    }

    private final ScheduledThreadPoolExecutor executor;
    private final Set<ClusterTimer> pending = ConcurrentHashMap.newKeySet();
    private final CopyOnWriteArrayList<ChangeListener> listeners = new CopyOnWriteArrayList<>();
    private volatile ClusterTime time = ClusterTime.REAL;
    private volatile boolean trackSleepers = true;

    public ClusterClock() {
        executor = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("kplane-cluster-clock"));
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Instant now() {
        ClusterTime t = time;
        return t.isReal() ? Instant.now() : t.at(Instant.now());
    }

    public ClusterTime time() {
        return time;
    }

    /** Applies a new clock: re-arms every pending timer, then tells the listeners. */
    public void update(ClusterTime next) {
        ClusterTime before;
        Instant wall = Instant.now();
        synchronized (this) {
            before = time;
            if (before.equals(next)) {
                return;
            }
            time = next;
        }
        boolean jumped = Duration.between(before.at(wall), next.at(wall)).abs().compareTo(Duration.ofMillis(1)) > 0;
        log.info("cluster clock: {} (rate {}), cluster time {}", next.mode(), next.rate(), next.at(wall));
        for (ClusterTimer t : pending) {
            t.arm();
        }
        for (ChangeListener l : listeners) {
            try {
                l.clockChanged(before, next, jumped);
            } catch (RuntimeException e) {
                log.warn("clock listener failed", e);
            }
        }
    }

    public void addListener(ChangeListener listener) {
        listeners.add(listener);
    }

    public void removeListener(ChangeListener listener) {
        listeners.remove(listener);
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        ClusterTimer timer = new ClusterTimer(now().plus(delay.isNegative() ? Duration.ZERO : delay), task);
        pending.add(timer);
        timer.arm();
        return timer;
    }

    /**
     * Sleeps for {@code delay} of cluster time. A thread woken by this counts as busy for
     * {@link ActivityTracker} until it sleeps again: a periodic loop's work after a clock step is
     * part of that step.
     */
    @Override
    public void sleep(Duration delay) throws InterruptedException {
        if (Boolean.TRUE.equals(WOKEN.get())) {
            WOKEN.set(false);
            ActivityTracker.end();
        }
        if (delay.isZero() || delay.isNegative()) {
            return;
        }
        CountDownLatch latch = new CountDownLatch(1);
        boolean[] fired = new boolean[1];
        Timer timer = schedule(delay, () -> {
            synchronized (fired) {
                if (trackSleepers) {
                    ActivityTracker.begin();
                    fired[0] = true;
                }
            }
            latch.countDown();
        });
        try {
            latch.await();
        } finally {
            timer.cancel();
            synchronized (fired) {
                if (fired[0]) {
                    WOKEN.set(true);
                }
            }
        }
    }

    /** Timers whose cluster due time has come but that have not run yet (a step is not over while any is). */
    public int dueTimers() {
        Instant now = now();
        int n = 0;
        for (ClusterTimer t : pending) {
            if (!t.due.isAfter(now)) {
                n++;
            }
        }
        return n;
    }

    /** The earliest pending due time (cluster time), or null. */
    public Instant nextDue() {
        Instant min = null;
        for (ClusterTimer t : pending) {
            if (min == null || t.due.isBefore(min)) {
                min = t.due;
            }
        }
        return min;
    }

    /** Stops the timer thread; pending timers never fire. */
    public void close() {
        trackSleepers = false;
        executor.shutdownNow();
        pending.clear();
    }

    private final class ClusterTimer implements Timer {
        final Instant due;
        final Runnable task;
        private ScheduledFuture<?> future;
        private boolean done;

        ClusterTimer(Instant due, Runnable task) {
            this.due = due;
            this.task = task;
        }

        /** (Re)computes the wall delay from the current clock; a frozen clock leaves it unarmed. */
        synchronized void arm() {
            if (done) {
                return;
            }
            if (future != null) {
                future.cancel(false);
                future = null;
            }
            Duration wait = time.wallDelayUntil(due, Instant.now());
            if (wait == null) {
                return;
            }
            try {
                future = executor.schedule(this::fire, Math.max(0, saturatedNanos(wait)), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                done = true; // clock closed
            }
        }

        private void fire() {
            synchronized (this) {
                if (done) {
                    return;
                }
                if (now().isBefore(due)) {
                    arm(); // the wall timer ran a little early, or the clock slowed since it was armed
                    return;
                }
                done = true;
                future = null;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn("timer task failed", e);
            } finally {
                pending.remove(this); // after the task: until then it counts as due work (dueTimers)
            }
        }

        @Override
        public synchronized boolean cancel() {
            if (done) {
                return false;
            }
            done = true;
            if (future != null) {
                future.cancel(false);
                future = null;
            }
            pending.remove(this);
            return true;
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
