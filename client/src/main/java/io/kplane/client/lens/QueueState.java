package io.kplane.client.lens;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lens's view of one workqueue: what each item is doing (waiting, delayed until a due time,
 * processing), counters, and the triggers coalesced into each key since its last sync (kplane owns its
 * queue, so the reason for a sync survives de-duplication). Per-key trigger lists are capped at
 * {@link #MAX_TRIGGERS_PER_KEY}; the map only holds keys that are in the queue.
 */
public final class QueueState implements QueueObserver {
    static final int MAX_TRIGGERS_PER_KEY = 8;

    private final LensRecorder lens;
    private final String name;
    final AtomicLong adds = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    private final Map<String, Item> items = new ConcurrentHashMap<>();
    private final Map<String, Triggers> triggers = new ConcurrentHashMap<>();

    QueueState(LensRecorder lens, String name) {
        this.lens = lens;
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    /** The item's state; {@code since} is System.nanoTime() of the last change. */
    static final class Item {
        volatile String state;
        volatile Instant dueAt;
        volatile int retries;
        volatile long since = System.nanoTime();
        volatile boolean dirtyWhileProcessing;
    }

    private Item item(String key) {
        return items.computeIfAbsent(key, k -> new Item());
    }

    /** Set while the delaying queue's timer moves a due item in: that add is not a new trigger. */
    private static final ThreadLocal<Boolean> RELEASING = new ThreadLocal<>();

    private void trigger(String key, String type) {
        if (RELEASING.get() != null) {
            return;
        }
        SyncSummary.Trigger t = LensRecorder.currentTrigger(type, key, lens.now());
        triggers.computeIfAbsent(key, k -> new Triggers()).add(t);
    }

    @Override
    public void added(String key, boolean queued) {
        adds.incrementAndGet();
        for (LensListener l : lens.listeners()) {
            l.added(name);
        }
        trigger(key, "ADD");
        Item item = item(key);
        String previous = item.state;
        if (queued) {
            item.state = "waiting";
            if (!"waiting".equals(previous)) {
                item.since = System.nanoTime();
            }
        } else if ("processing".equals(previous)) {
            item.dirtyWhileProcessing = true;
        }
        boolean released = RELEASING.get() != null;
        lens.record(LensRecord.of(
                name,
                "queue",
                released ? "due" : queued ? "add" : "coalesce",
                null,
                key,
                null,
                queued ? null : Map.of("state", previous == null ? "waiting" : previous)));
    }

    @Override
    public void addedAfter(String key, Duration delay, Instant due, boolean kept) {
        trigger(key, "ADD_AFTER");
        if (kept) {
            // dueAt mirrors the delaying queue's heap entry: set here, cleared when the timer releases it
            Item item = item(key);
            item.dueAt = due;
            if (item.state == null || "delayed".equals(item.state)) {
                item.state = "delayed";
                item.since = System.nanoTime();
            }
        }
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("delayMs", delay.toNanos() / 1e6);
        detail.put("dueAt", due.toString());
        if (!kept) {
            detail.put("coalesced", "an earlier due time is already waiting");
        }
        lens.record(LensRecord.of(name, "queue", "add-after", null, key, null, detail));
    }

    @Override
    public void rateLimited(String key, Duration backoff, int retriesSoFar) {
        retries.incrementAndGet();
        for (LensListener l : lens.listeners()) {
            l.retried(name);
        }
        Item item = item(key);
        item.retries = retriesSoFar;
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("backoffMs", backoff.toNanos() / 1e6);
        detail.put("retries", retriesSoFar);
        lens.record(LensRecord.of(name, "queue", "add-rate-limited", null, key, null, detail));
    }

    @Override
    public void got(String key) {
        Item item = item(key);
        long now = System.nanoTime();
        double waited = (now - item.since) / 1e9;
        item.state = "processing";
        item.since = now;
        item.dirtyWhileProcessing = false;
        for (LensListener l : lens.listeners()) {
            l.queued(name, waited);
        }
        lens.record(LensRecord.of(
                name,
                "queue",
                "get",
                null,
                key,
                null,
                Map.of(
                        "waitedMs",
                        Math.round(waited * 1e6) / 1e3,
                        "worker",
                        Thread.currentThread().getName())));
    }

    @Override
    public void done(String key, boolean requeued) {
        Item item = items.get(key);
        if (item != null) {
            long now = System.nanoTime();
            for (LensListener l : lens.listeners()) {
                l.worked(name, (now - item.since) / 1e9);
            }
            if (requeued) {
                item.state = "waiting";
                item.since = now;
            } else if (item.dueAt != null) {
                item.state = "delayed"; // the sync asked for a requeue after a delay
                item.since = now;
            } else if ("processing".equals(item.state)) {
                items.remove(key, item);
            }
        }
        lens.record(LensRecord.of(name, "queue", "done", null, key, null, requeued ? Map.of("requeued", true) : null));
    }

    @Override
    public void released(String key, Runnable add) {
        Item item = items.get(key);
        if (item != null) {
            item.dueAt = null;
            if ("delayed".equals(item.state)) {
                item.state = null;
            }
        }
        RELEASING.set(Boolean.TRUE);
        try {
            add.run();
        } finally {
            RELEASING.remove();
        }
    }

    @Override
    public void forgot(String key) {
        Item item = items.get(key);
        if (item != null) {
            item.retries = 0;
        }
        lens.record(LensRecord.of(name, "queue", "forget", null, key, null, null));
    }

    /** Drains the triggers coalesced into {@code key} since it was last taken. */
    Triggers takeTriggers(String key) {
        Triggers t = triggers.remove(key);
        return t == null ? new Triggers() : t;
    }

    void setState(String key, String state) {
        Item item = items.get(key);
        if (item != null) {
            item.state = state;
        }
    }

    /** Items and their states, waiting first, then delayed by due time; at most {@code max}. */
    public List<Map<String, Object>> items(int max) {
        List<Map.Entry<String, Item>> all = new ArrayList<>(items.entrySet());
        all.sort(Comparator.comparing((Map.Entry<String, Item> e) -> order(e.getValue().state))
                .thenComparing(e -> e.getValue().dueAt == null ? Instant.MIN : e.getValue().dueAt));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, Item> e : all) {
            if (out.size() >= max) {
                break;
            }
            Item item = e.getValue();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", e.getKey());
            String state = item.state == null ? "waiting" : item.state;
            m.put("state", "held".equals(state) ? "waiting" : state);
            if ("held".equals(state)) {
                m.put("held", true);
            }
            m.put("dueAt", item.dueAt == null ? null : item.dueAt.toString());
            m.put("retries", item.retries);
            Triggers t = triggers.get(e.getKey());
            m.put("triggers", t == null ? 0 : t.size());
            out.add(m);
        }
        return out;
    }

    private static int order(String state) {
        if (state == null) {
            return 1;
        }
        return switch (state) {
            case "processing" -> 0;
            case "held" -> 1;
            case "waiting" -> 2;
            default -> 3;
        };
    }

    public int depth() {
        int n = 0;
        for (Item item : items.values()) {
            if ("waiting".equals(item.state) || "held".equals(item.state) || item.dirtyWhileProcessing) {
                n++;
            }
        }
        return n;
    }

    public int delayed() {
        int n = 0;
        for (Item item : items.values()) {
            if ("delayed".equals(item.state)) {
                n++;
            }
        }
        return n;
    }

    public int inFlight() {
        int n = 0;
        for (Item item : items.values()) {
            if ("processing".equals(item.state)) {
                n++;
            }
        }
        return n;
    }

    public long adds() {
        return adds.get();
    }

    public long retries() {
        return retries.get();
    }

    /** The longest an item has been processing, in seconds (workqueue_longest_running_processor_seconds). */
    public double longestRunningSeconds() {
        long now = System.nanoTime();
        long longest = 0;
        for (Item item : items.values()) {
            if ("processing".equals(item.state)) {
                longest = Math.max(longest, now - item.since);
            }
        }
        return longest / 1e9;
    }

    /** Seconds of work in progress not yet observed by work duration (workqueue_unfinished_work_seconds). */
    public double unfinishedWorkSeconds() {
        long now = System.nanoTime();
        long total = 0;
        for (Item item : items.values()) {
            if ("processing".equals(item.state)) {
                total += now - item.since;
            }
        }
        return total / 1e9;
    }

    /** A key's bounded trigger list: the first {@code MAX-1} and the latest are kept, the rest counted. */
    static final class Triggers {
        private final List<SyncSummary.Trigger> list = new ArrayList<>(2);
        private int dropped;

        synchronized void add(SyncSummary.Trigger t) {
            if (list.size() < MAX_TRIGGERS_PER_KEY) {
                list.add(t);
            } else {
                list.set(MAX_TRIGGERS_PER_KEY - 1, t);
                dropped++;
            }
        }

        synchronized int size() {
            return list.size() + dropped;
        }

        synchronized List<SyncSummary.Trigger> list() {
            return List.copyOf(list);
        }

        synchronized int dropped() {
            return dropped;
        }
    }
}
