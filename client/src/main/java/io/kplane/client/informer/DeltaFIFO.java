package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * client-go's DeltaFIFO: a queue of keys, each with the list of changes ({@link Delta}s) that happened to
 * that object since it was last popped.
 *
 * <ul>
 *   <li>FIFO across keys: a key keeps its place in the queue while more deltas accumulate for it.</li>
 *   <li>{@link #pop} hands one key's whole delta list to one consumer, under the queue lock, so
 *       {@link #hasSynced()} only turns true once the consumer has processed the initial list.</li>
 *   <li>Two deletes in a row collapse into one (keeping the one that is not a tombstone).</li>
 *   <li>{@link #replace} (after a list) queues {@code REPLACED} for every listed object and a
 *       {@code DELETED} tombstone for every object the cache (the {@code knownObjects}) or the queue holds
 *       that the list no longer contains.</li>
 * </ul>
 */
public final class DeltaFIFO<T extends KubeObject> implements ReflectorStore<T> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Map<String, List<Delta<T>>> items = new HashMap<>();
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private final KeyListerGetter<T> knownObjects;
    private boolean populated;
    private int initialPopulationCount;
    private boolean closed;

    /** @param knownObjects the consumer's cache (the informer's indexer), used to detect deletions; may be null */
    public DeltaFIFO(KeyListerGetter<T> knownObjects) {
        this.knownObjects = knownObjects;
    }

    private volatile io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
    private volatile String resource;

    /** Reports adds (and their coalescing per key), pops and depth to {@code lens}. */
    public void lens(io.kplane.client.lens.Lens lens, String resource) {
        this.lens = lens;
        this.resource = resource;
        lens.registerGauge("fifoDepth." + resource, this::depth);
    }

    /** Keys waiting to be popped. */
    public int depth() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Consumes one key's deltas, oldest first. Runs under the FIFO lock: keep it quick. */
    @FunctionalInterface
    public interface Processor<T> {
        void process(List<Delta<T>> deltas, boolean isInInitialList) throws Exception;
    }

    @Override
    public void add(T obj) {
        queueAction(DeltaType.ADDED, obj);
    }

    @Override
    public void update(T obj) {
        queueAction(DeltaType.UPDATED, obj);
    }

    /** Queues a delete, unless neither the cache nor the queue knows the object (nothing to delete). */
    @Override
    public void delete(T obj) {
        lock.lock();
        try {
            String key = obj.key();
            if (knownObjects != null && !items.containsKey(key) && knownObjects.getByKey(key) == null) {
                return;
            }
            populated = true;
            queueActionLocked(Delta.of(DeltaType.DELETED, obj), key);
        } finally {
            lock.unlock();
        }
    }

    private void queueAction(DeltaType type, T obj) {
        lock.lock();
        try {
            populated = true;
            queueActionLocked(Delta.of(type, obj), obj.key());
        } finally {
            lock.unlock();
        }
    }

    private void queueActionLocked(Delta<T> delta, String key) {
        List<Delta<T>> deltas = items.get(key);
        boolean isNew = deltas == null;
        if (isNew) {
            deltas = new ArrayList<>(2);
        }
        deltas.add(delta);
        dedupTrailingDeletes(deltas);
        if (isNew) {
            items.put(key, deltas);
            queue.addLast(key);
            notEmpty.signal();
        }
        if (lens.enabled()) {
            T obj = delta.object();
            String rv = obj == null || obj.metadata() == null
                    ? null
                    : obj.metadata().resourceVersion();
            lens.record(io.kplane.client.lens.LensRecord.of(
                    null,
                    "fifo",
                    isNew ? "add" : "coalesce",
                    resource,
                    key,
                    rv,
                    java.util.Map.of("delta", delta.type().name(), "deltas", deltas.size(), "depth", queue.size())));
        }
    }

    /** Two deletes in a row say the same thing; keep the more informative one (not the tombstone). */
    private static <T> void dedupTrailingDeletes(List<Delta<T>> deltas) {
        int n = deltas.size();
        if (n < 2) {
            return;
        }
        Delta<T> a = deltas.get(n - 2);
        Delta<T> b = deltas.get(n - 1);
        if (a.type() == DeltaType.DELETED && b.type() == DeltaType.DELETED) {
            Delta<T> keep = b.finalStateUnknown() ? a : b;
            deltas.remove(n - 1);
            deltas.set(n - 2, keep);
        }
    }

    @Override
    public void replace(List<T> objects, String resourceVersion) {
        lock.lock();
        try {
            Set<String> keys = new HashSet<>(objects.size() * 2);
            for (T obj : objects) {
                String key = obj.key();
                keys.add(key);
                queueActionLocked(Delta.of(DeltaType.REPLACED, obj), key);
            }
            int queuedDeletions = 0;
            // Objects still waiting in the queue that are gone from the list.
            for (Map.Entry<String, List<Delta<T>>> entry : new ArrayList<>(items.entrySet())) {
                if (keys.contains(entry.getKey())) {
                    continue;
                }
                List<Delta<T>> deltas = entry.getValue();
                T last = deltas.get(deltas.size() - 1).object();
                queuedDeletions++;
                queueActionLocked(Delta.tombstone(last), entry.getKey());
            }
            // Objects the consumer has cached that are gone from the list: their delete event was missed.
            if (knownObjects != null) {
                for (String key : knownObjects.listKeys()) {
                    if (keys.contains(key) || items.containsKey(key)) {
                        continue;
                    }
                    T last = knownObjects.getByKey(key);
                    if (last == null) {
                        continue;
                    }
                    queuedDeletions++;
                    queueActionLocked(Delta.tombstone(last), key);
                }
            }
            if (!populated) {
                populated = true;
                initialPopulationCount = keys.size() + queuedDeletions;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Queues a {@code SYNC} delta for every cached object that has no pending deltas. */
    public void resync() {
        if (knownObjects == null) {
            return;
        }
        lock.lock();
        try {
            for (String key : knownObjects.listKeys()) {
                if (items.containsKey(key)) {
                    continue;
                }
                T obj = knownObjects.getByKey(key);
                if (obj != null) {
                    queueActionLocked(Delta.of(DeltaType.SYNC, obj), key);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a key, removes it with all its deltas and gives them to {@code processor}.
     *
     * @return false once the FIFO is closed (nothing was processed)
     */
    public boolean pop(Processor<T> processor) throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty()) {
                if (closed) {
                    return false;
                }
                notEmpty.await();
            }
            if (closed) {
                return false;
            }
            boolean isInInitialList = !hasSyncedLocked();
            String key = queue.removeFirst();
            if (initialPopulationCount > 0) {
                initialPopulationCount--;
            }
            List<Delta<T>> deltas = items.remove(key);
            if (lens.enabled()) {
                lens.record(io.kplane.client.lens.LensRecord.of(
                        null,
                        "fifo",
                        "pop",
                        resource,
                        key,
                        null,
                        java.util.Map.of(
                                "deltas", deltas.size(), "depth", queue.size(), "initialList", isInInitialList)));
            }
            try {
                processor.process(List.copyOf(deltas), isInInitialList);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                org.slf4j.LoggerFactory.getLogger(DeltaFIFO.class)
                        .warn("processing {} failed: {}", key, e.toString(), e);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** True once the first {@link #replace} (or any add) happened and all of the first replace's items were popped. */
    public boolean hasSynced() {
        lock.lock();
        try {
            return hasSyncedLocked();
        } finally {
            lock.unlock();
        }
    }

    private boolean hasSyncedLocked() {
        return populated && initialPopulationCount == 0;
    }

    /** Makes blocked and future {@link #pop} calls return false. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Keys waiting to be popped, in order. */
    public List<String> queuedKeys() {
        lock.lock();
        try {
            return new ArrayList<>(queue);
        } finally {
            lock.unlock();
        }
    }

    /** The pending deltas of {@code key} (empty if none). */
    public List<Delta<T>> deltas(String key) {
        lock.lock();
        try {
            List<Delta<T>> deltas = items.get(key);
            return deltas == null ? List.of() : List.copyOf(deltas);
        } finally {
            lock.unlock();
        }
    }
}
