package io.kplane.client.lens;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One controller's lens: the pause/step gate, the workers' current keys, sync statistics (count and a
 * window of the last {@link #LATENCY_WINDOW} durations for p50/p99) and the sync records it opens.
 *
 * <p>Pause/step: only one worker at a time may be taking an item ({@link #awaitTurn}); while paused,
 * the item it took is held (shown as the head of the queue) until a step releases it, so exactly one
 * item goes to one worker per step and the other workers take nothing.
 */
public final class ControllerState implements ControllerLens {
    static final int LATENCY_WINDOW = 512;

    private final LensRecorder lens;
    private final String name;
    private final QueueState queue;
    private final ReentrantLock taker = new ReentrantLock(true);
    private final ReentrantLock gate = new ReentrantLock();
    private final Condition changed = gate.newCondition();
    private boolean paused;
    private int stepsPending;
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong syncErrors = new AtomicLong();
    private final double[] latencies = new double[LATENCY_WINDOW];
    private int latencyCount;
    private final Map<String, String> workerKeys = new ConcurrentHashMap<>();

    private final boolean hasQueue;

    ControllerState(LensRecorder lens, String name, QueueState queue, boolean hasQueue) {
        this.lens = lens;
        this.name = name;
        this.queue = queue;
        this.hasQueue = hasQueue;
    }

    /** False for a timer-driven controller (no workqueue; its {@link #queue()} only carries its sync bookkeeping). */
    public boolean hasQueue() {
        return hasQueue;
    }

    public String name() {
        return name;
    }

    public QueueState queue() {
        return queue;
    }

    @Override
    public void awaitTurn() throws InterruptedException {
        taker.lockInterruptibly();
    }

    @Override
    public void gotItem(String key) throws InterruptedException {
        try {
            gate.lockInterruptibly();
            try {
                if (paused && stepsPending == 0) {
                    queue.setState(key, "held");
                    lens.record(LensRecord.of(
                            queue.name(),
                            "worker",
                            "held",
                            null,
                            key,
                            null,
                            Map.of("reason", "controller paused: waiting for a step")));
                    while (paused && stepsPending == 0) {
                        changed.await();
                    }
                    queue.setState(key, "processing");
                }
                if (paused) {
                    stepsPending--;
                    lens.record(LensRecord.of(queue.name(), "worker", "step", null, key, null, null));
                }
            } finally {
                gate.unlock();
            }
        } finally {
            taker.unlock();
        }
    }

    @Override
    public void releaseTurn() {
        if (taker.isHeldByCurrentThread()) {
            taker.unlock();
        }
    }

    public Map<String, Object> pause() {
        return setPaused(true);
    }

    public Map<String, Object> resume() {
        return setPaused(false);
    }

    private Map<String, Object> setPaused(boolean value) {
        gate.lock();
        try {
            paused = value;
            if (!value) {
                stepsPending = 0;
            }
            changed.signalAll();
        } finally {
            gate.unlock();
        }
        lens.record(LensRecord.of(queue.name(), "worker", value ? "pause" : "resume", null, null, null, null));
        return state();
    }

    /** Releases one item to one worker (only while paused; a no-op otherwise). */
    public Map<String, Object> step() {
        gate.lock();
        try {
            if (paused) {
                stepsPending++;
                changed.signalAll();
            }
        } finally {
            gate.unlock();
        }
        return state();
    }

    public Map<String, Object> state() {
        gate.lock();
        try {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("paused", paused);
            m.put("stepsPending", stepsPending);
            return m;
        } finally {
            gate.unlock();
        }
    }

    public boolean paused() {
        gate.lock();
        try {
            return paused;
        } finally {
            gate.unlock();
        }
    }

    @Override
    public SyncScope beginSync(String key) {
        workerKeys.put(Thread.currentThread().getName(), key);
        ActiveSync scope = new ActiveSync(this, key, queue.takeTriggers(key));
        LensRecorder.CURRENT_SYNC.set(scope);
        return scope;
    }

    void finished(ActiveSync sync, SyncSummary summary) {
        LensRecorder.CURRENT_SYNC.remove();
        workerKeys.remove(Thread.currentThread().getName());
        syncs.incrementAndGet();
        if (summary.error() != null) {
            syncErrors.incrementAndGet();
        }
        synchronized (latencies) {
            latencies[latencyCount++ % LATENCY_WINDOW] = summary.durationMs();
        }
        // filed under the controller's name (docs/lens.md: "controller":"job"), which for job and cronjob
        // is also their queue's name; gc, ttl and the scheduler have upstream queue names of their own
        String key = sync.key();
        Map<String, Object> detail = key.equals(sync.queueKey()) ? null : Map.of("queueKey", sync.queueKey());
        lens.record(new LensRecord(
                0, null, null, name, "sync", "sync", sync.resource(), key, sync.rv(), sync.uid(), detail, summary));
    }

    public long syncs() {
        return syncs.get();
    }

    public long syncErrors() {
        return syncErrors.get();
    }

    /** The q-quantile (0..1) of the recent sync durations in ms, or 0 before any sync. */
    public double syncQuantileMs(double q) {
        double[] copy;
        synchronized (latencies) {
            int n = Math.min(latencyCount, LATENCY_WINDOW);
            copy = Arrays.copyOf(latencies, n);
        }
        if (copy.length == 0) {
            return 0;
        }
        Arrays.sort(copy);
        return copy[
                Math.min(
                        copy.length - 1,
                        (int) Math.ceil(q * copy.length) - 1 < 0 ? 0 : (int) Math.ceil(q * copy.length) - 1)];
    }

    /** Worker thread → key it is syncing. */
    public List<Map<String, Object>> workers() {
        List<Map<String, Object>> out = new ArrayList<>();
        workerKeys.forEach((worker, key) -> out.add(Map.of("worker", worker, "key", key)));
        return out;
    }

    String component() {
        return lens.component();
    }

    LensRecorder recorder() {
        return lens;
    }

    static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }
}
