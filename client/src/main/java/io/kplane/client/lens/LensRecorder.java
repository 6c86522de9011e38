package io.kplane.client.lens;

import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

/**
 * The lens of one component process: a bounded ring buffer of records (the newest {@code capacity}),
 * a bounded per-object history of sync records (the last {@link #SYNCS_PER_OBJECT} syncs of at most
 * {@link #MAX_OBJECTS} keys, least recently synced dropped first), the workqueues' live state and each
 * controller's pause/step gate. Memory does not grow with time or object count: everything is capped.
 *
 * <p>Under load it samples: beyond {@code maxRecordsPerSecond} machinery records in one second the
 * rest of that second's reflector/fifo/queue records are dropped (counted); sync and kubelet records
 * are always kept. {@link #sampling()} says so, and the UI shows it.
 */
public final class LensRecorder implements Lens {
    static final ThreadLocal<SyncScope> CURRENT_SYNC = new ThreadLocal<>();
    /** The informer event being handed to a handler on this thread: what a queue add is a trigger of. */
    static final ThreadLocal<SyncSummary.Trigger> CURRENT_EVENT = new ThreadLocal<>();

    public static final int DEFAULT_CAPACITY = 4096;
    public static final int DEFAULT_MAX_RECORDS_PER_SECOND = 4000;
    static final int SYNCS_PER_OBJECT = 10;
    static final int MAX_OBJECTS = 2000;

    private final String component;
    private final String instance;
    private final Clock clock;
    private final LensRecord[] ring;
    private final int maxRecordsPerSecond;
    private long seq;
    private long windowSecond;
    private int windowCount;
    private volatile long droppedTotal;
    private volatile long lastDropSecond = Long.MIN_VALUE;
    private final LinkedHashMap<String, List<LensRecord>> syncsByObject = new LinkedHashMap<>(256, 0.75f, true);
    private final Map<String, QueueState> queues = new ConcurrentHashMap<>();
    private final Map<String, ControllerState> controllers = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, IntSupplier> gauges = new ConcurrentHashMap<>();
    private final List<LensListener> listeners = new CopyOnWriteArrayList<>();
    private volatile java.util.function.LongSupplier persistDropped = () -> 0;

    public LensRecorder(String component, String instance, Clock clock) {
        this(component, instance, clock, DEFAULT_CAPACITY, DEFAULT_MAX_RECORDS_PER_SECOND);
    }

    public LensRecorder(String component, String instance, Clock clock, int capacity, int maxRecordsPerSecond) {
        if (capacity < 16) {
            throw new IllegalArgumentException("capacity must be >= 16");
        }
        this.component = component;
        this.instance = instance;
        this.clock = clock;
        this.ring = new LensRecord[capacity];
        this.maxRecordsPerSecond = maxRecordsPerSecond;
    }

    public String component() {
        return component;
    }

    public String instance() {
        return instance;
    }

    public Clock clock() {
        return clock;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    /** Observations for metrics (workqueue_*, sync durations), fed from the same records. */
    public void addListener(LensListener listener) {
        listeners.add(listener);
    }

    List<LensListener> listeners() {
        return listeners;
    }

    @Override
    public void record(LensRecord record) {
        // sampling drops only the high-volume machinery records; decisions and rare transitions stay
        boolean always = record.sync() != null
                || switch (record.stage()) {
                    case "kubelet", "worker", "expectations" -> true;
                    case "reflector" -> !"event".equals(record.type());
                    default -> false;
                };
        Instant now = clock.now();
        LensRecord stamped;
        synchronized (this) {
            long second = System.nanoTime() / 1_000_000_000L;
            if (second != windowSecond) {
                windowSecond = second;
                windowCount = 0;
            }
            if (!always && ++windowCount > maxRecordsPerSecond) {
                droppedTotal++;
                lastDropSecond = second;
                return;
            }
            stamped = record.stamped(++seq, now, component);
            ring[(int) (seq % ring.length)] = stamped;
            if (stamped.sync() != null && stamped.key() != null) {
                String objectKey = stamped.controller() + "|" + stamped.key();
                List<LensRecord> history = syncsByObject.computeIfAbsent(objectKey, k -> new ArrayList<>(4));
                if (history.size() == SYNCS_PER_OBJECT) {
                    history.remove(0);
                }
                history.add(stamped);
                if (syncsByObject.size() > MAX_OBJECTS) {
                    var eldest = syncsByObject.keySet().iterator();
                    eldest.next();
                    eldest.remove();
                }
            }
        }
        for (LensListener listener : listeners) {
            listener.recorded(stamped);
        }
    }

    /** The last record's sequence number (0 before any). */
    public synchronized long seq() {
        return seq;
    }

    /** True while records are being dropped to stay within the rate budget (within the last 2 s). */
    public boolean sampling() {
        long last = lastDropSecond;
        return last != Long.MIN_VALUE && System.nanoTime() / 1_000_000_000L - last <= 2;
    }

    public long droppedTotal() {
        return droppedTotal;
    }

    /** Where the count of records the SyncRecord persister dropped comes from (0 without one). */
    public void persistDropped(java.util.function.LongSupplier count) {
        this.persistDropped = count;
    }

    /** Sync records that were not persisted as SyncRecords (pressure or failed writes). */
    public long persistDroppedTotal() {
        return persistDropped.getAsLong();
    }

    /** Records with seq > {@code since} still in the ring, oldest first, at most {@code max}. */
    public synchronized List<LensRecord> since(long since, int max) {
        long oldest = Math.max(1, seq - ring.length + 1);
        long from = Math.max(since + 1, oldest);
        from = Math.max(from, seq - max + 1);
        List<LensRecord> out = new ArrayList<>((int) Math.max(0, seq - from + 1));
        for (long s = from; s <= seq; s++) {
            LensRecord r = ring[(int) (s % ring.length)];
            if (r != null && r.seq() == s) {
                out.add(r);
            }
        }
        return out;
    }

    /** The last sync records of one object key (e.g. "default/pi") across this component's controllers. */
    public synchronized List<LensRecord> syncsOf(String key) {
        List<LensRecord> out = new ArrayList<>();
        for (Map.Entry<String, List<LensRecord>> e : syncsByObject.entrySet()) {
            if (e.getKey().endsWith("|" + key)) {
                out.addAll(e.getValue());
            }
        }
        out.sort((a, b) -> Long.compare(a.seq(), b.seq()));
        return out;
    }

    @Override
    public QueueObserver queue(String name) {
        QueueState existing = queues.get(name);
        if (existing != null) {
            return existing;
        }
        QueueState created = queues.computeIfAbsent(name, n -> new QueueState(this, n));
        for (LensListener listener : listeners) {
            listener.queueCreated(name);
        }
        return created;
    }

    @Override
    public ControllerLens controller(String name, String queueName) {
        if (queueName == null) {
            // a controller driven by a timer, not a workqueue (the node lifecycle monitor): its sync records
            // only; no queue is registered, so no workqueue metrics for a queue that does not exist
            return controllers.computeIfAbsent(name, n -> new ControllerState(this, n, new QueueState(this, n), false));
        }
        return controllers.computeIfAbsent(
                name, n -> new ControllerState(this, n, (QueueState) queue(queueName), true));
    }

    /** A named gauge shown in the snapshot's counters, e.g. {@code cacheObjects.pods}, {@code fifoDepth.pods}. */
    public void gauge(String name, IntSupplier value) {
        gauges.put(name, value);
    }

    @Override
    public void registerGauge(String name, IntSupplier value) {
        gauge(name, value);
    }

    public Map<String, Integer> gauges() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        gauges.forEach((k, v) -> out.put(k, v.getAsInt()));
        return out;
    }

    public List<ControllerState> controllers() {
        synchronized (controllers) {
            return List.copyOf(controllers.values());
        }
    }

    public ControllerState controllerState(String name) {
        return controllers.get(name);
    }

    public List<QueueState> queues() {
        return List.copyOf(queues.values());
    }

    Instant now() {
        return clock.now();
    }

    /** The trigger a queue add on this thread stands for: the informer event being handled, a requeue, or a plain add. */
    static SyncSummary.Trigger currentTrigger(String defaultType, String key, Instant now) {
        SyncSummary.Trigger event = CURRENT_EVENT.get();
        if (event != null) {
            return event;
        }
        return new SyncSummary.Trigger(CURRENT_SYNC.get() != null ? "REQUEUE" : defaultType, null, key, null, now);
    }

    /** Sets the informer event a handler is running for (null clears); used by the informer's dispatch. */
    public static void handlingEvent(SyncSummary.Trigger event) {
        if (event == null) {
            CURRENT_EVENT.remove();
        } else {
            CURRENT_EVENT.set(event);
        }
    }

    static Duration durationOf(long nanos) {
        return Duration.ofNanos(nanos);
    }
}
