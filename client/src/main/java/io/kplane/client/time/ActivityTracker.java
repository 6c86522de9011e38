package io.kplane.client.time;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide count of work in progress: keys queued or being processed in any work queue, pod
 * workers syncing, loops woken by the cluster clock and not yet asleep again. Stepping the cluster
 * clock ({@code kubectl-lite clock advance --step}) waits until every process reports this as idle
 * (see {@link ClockAckPublisher}). One atomic add per change; listeners hear only idle⇄busy flips.
 */
public final class ActivityTracker {
    private static final AtomicLong BUSY = new AtomicLong();
    private static final AtomicLong FLIPS = new AtomicLong();
    private static final CopyOnWriteArrayList<Runnable> LISTENERS = new CopyOnWriteArrayList<>();

    private ActivityTracker() {}

    public static void begin() {
        add(1);
    }

    public static void end() {
        add(-1);
    }

    /** Adds {@code delta} units of work (negative: finished). */
    public static void add(long delta) {
        if (delta == 0) {
            return;
        }
        long after = BUSY.addAndGet(delta);
        long before = after - delta;
        if ((after <= 0) != (before <= 0)) {
            FLIPS.incrementAndGet();
            for (Runnable l : LISTENERS) {
                l.run();
            }
        }
    }

    public static boolean isIdle() {
        return BUSY.get() <= 0;
    }

    /** Units of work in progress now. */
    public static long busy() {
        return BUSY.get();
    }

    /** Number of idle⇄busy transitions so far: an unchanged count over a period means no flip in it. */
    public static long flips() {
        return FLIPS.get();
    }

    /** {@code listener} runs (on the flipping thread; keep it tiny) at each idle⇄busy transition. */
    public static void addListener(Runnable listener) {
        LISTENERS.add(listener);
    }

    public static void removeListener(Runnable listener) {
        LISTENERS.remove(listener);
    }
}
