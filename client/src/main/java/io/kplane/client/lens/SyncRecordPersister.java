package io.kplane.client.lens;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncRecordEntry;
import io.kplane.api.lens.SyncRecordNames;
import io.kplane.api.lens.SyncTarget;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.ResourceClient;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persists a component's sync records as {@code lens.kplane.io/v1} SyncRecords (docs/lens.md, "Where
 * sync records live"), off the sync's critical path.
 *
 * <p>The lens hands every record to {@link #recorded} on the thread that made it (a controller worker
 * finishing a sync): that only files the record under its SyncRecord's name in a bounded map, in
 * O(1) under a short lock, and never blocks or does I/O. One writer thread takes what is pending
 * {@code flushInterval} after the first of it arrived (a record is never written the moment it is
 * made) and writes each object once with everything that arrived for it since (coalesced, latest wins:
 * at most {@link SyncRecord#MAX_RECORDS} records per object wait). When
 * {@code maxPending} objects already wait, a record for another object is dropped; a write that fails
 * (API unreachable, rejected) drops its records too. Both are counted ({@link #droppedTotal()}, the
 * metric {@code kplane_lens_records_persist_dropped_total} and the snapshot's
 * {@code persistDroppedRecords}); the lens's in-memory history is unaffected.
 *
 * <p>A write reads the stored object once (then keeps what it wrote in a bounded cache), merges
 * ({@link SyncRecordMerge}), and creates or updates it with the component's REST client; a conflict
 * re-reads and retries once. After a restart the first write of each object reads what the previous
 * process stored, so the history continues. Records about SyncRecords and Events are never persisted
 * (the garbage collector syncs SyncRecords too: persisting those would feed itself).
 */
public final class SyncRecordPersister implements LensListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SyncRecordPersister.class);
    public static final int DEFAULT_MAX_PENDING = 1000;
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofMillis(250);
    static final int CACHE_SIZE = 2000;

    private final ResourceClient<SyncRecord> syncRecords;
    private final KubeClient client;
    private final Clock clock;
    private final int maxPending;
    private final long flushNanos;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final Map<String, SyncRecord> written = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SyncRecord> eldest) {
            return size() > CACHE_SIZE;
        }
    };
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong persisted = new AtomicLong();
    private final Thread writer;
    private volatile boolean closed;
    private boolean writing;
    /** Set by {@link #flush}: write what is pending now, without waiting out the interval. */
    private boolean flushRequested;

    public SyncRecordPersister(
            KubeClient client, Clock clock, String component, int maxPending, Duration flushInterval) {
        this.client = client;
        this.syncRecords = client.resource(ResourceTypes.SYNCRECORDS, SyncRecord.class);
        this.clock = clock;
        this.maxPending = maxPending;
        this.flushNanos = flushInterval.toNanos();
        this.writer = new Thread(this::run, "lens-persist-" + component);
        this.writer.setDaemon(true);
    }

    /** A persister for {@code recorder}'s records with the defaults, started and listening. */
    public static SyncRecordPersister start(KubeClient client, LensRecorder recorder) {
        SyncRecordPersister p = new SyncRecordPersister(
                client, recorder.clock(), recorder.component(), DEFAULT_MAX_PENDING, DEFAULT_FLUSH_INTERVAL);
        recorder.addListener(p);
        recorder.persistDropped(p::droppedTotal);
        p.writer.start();
        return p;
    }

    public SyncRecordPersister startWriter() {
        writer.start();
        return this;
    }

    /** Records that will never be stored: dropped under pressure or lost in a failed write. */
    public long droppedTotal() {
        return dropped.get();
    }

    /** Records stored so far. */
    public long persistedTotal() {
        return persisted.get();
    }

    /** Objects waiting to be written. */
    public synchronized int pendingObjects() {
        return pending.size();
    }

    @Override
    public void recorded(LensRecord record) {
        if (!SyncRecordEntries.persistable(record)) {
            return;
        }
        Target target = Target.of(record);
        if (target == null) {
            return;
        }
        synchronized (this) {
            Pending p = pending.get(target.recordName);
            if (p == null) {
                if (pending.size() >= maxPending || closed) {
                    dropped.incrementAndGet();
                    return;
                }
                p = new Pending(target);
                pending.put(target.recordName, p);
                notifyAll();
            }
            p.add(record);
        }
    }

    private void run() {
        while (!closed) {
            List<Pending> batch;
            synchronized (this) {
                try {
                    while (pending.isEmpty() && !closed) {
                        wait();
                    }
                    // The first record after a quiet spell waits one interval too, for the rest of its
                    // burst: a write per object per interval, and not at the moment the record is made.
                    // Writing at once put a lone pod's records (the scheduler's, then the kubelet's) through
                    // the store's one writer beside the binding and the status write of the very pod they
                    // describe: traced over 60 pods on fresh `up`s (load 16-42), a pod's window from its
                    // create to its container's start held a record write for 46 of 60 pods, and an
                    // overlapped binding took p50 26-27 ms on the server against 13-17 alone; waiting
                    // first, 28 of 60 (docs/performance.md, "Lens sync records beside the pod path").
                    long deadline = System.nanoTime() + flushNanos;
                    for (long left = flushNanos;
                            left > 0 && !closed && !flushRequested;
                            left = deadline - System.nanoTime()) {
                        wait(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (closed) {
                    return;
                }
                flushRequested = false;
                batch = new ArrayList<>(pending.values());
                pending.clear();
                writing = true;
            }
            for (Pending p : batch) {
                write(p);
            }
            synchronized (this) {
                writing = false;
                notifyAll();
            }
        }
    }

    private void write(Pending p) {
        List<SyncRecordEntry> entries = new ArrayList<>(p.records.size());
        for (LensRecord r : p.records) {
            entries.add(SyncRecordEntries.of(r));
        }
        try {
            String uid = p.uid != null ? p.uid : lookUpUid(p.target);
            if (uid == null) {
                return; // the object is gone: its records would be garbage at once
            }
            try {
                store(p, uid, entries);
            } catch (ApiException e) {
                if (e.code() != 409 && e.code() != 404) {
                    throw e;
                }
                // someone else wrote it, or the garbage collector deleted what the cache holds: read again, once
                forget(p.target.recordName);
                store(p, uid, entries);
            }
            persisted.addAndGet(entries.size());
        } catch (RuntimeException e) {
            dropped.addAndGet(entries.size());
            log.debug("sync records of {} not persisted: {}", p.target.recordName, e.toString());
        }
    }

    private void store(Pending p, String uid, List<SyncRecordEntry> entries) {
        Target t = p.target;
        ResourceClient<SyncRecord> rc = syncRecords.inNamespace(t.namespace);
        SyncRecord current;
        synchronized (written) {
            current = written.get(t.recordName);
        }
        if (current == null) {
            current = rc.find(t.name).orElse(null);
        }
        boolean sameObject = current != null
                && current.target() != null
                && uid.equals(current.target().uid());
        List<SyncRecordEntry> merged =
                SyncRecordMerge.merge(sameObject ? current.records() : List.of(), entries, clock.now());
        SyncTarget target = new SyncTarget(
                t.type.apiVersion(), t.type.kind(), t.type.resource(), t.objectNamespace, t.objectName, uid);
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .namespace(t.namespace)
                .name(t.name)
                .resourceVersion(current == null ? null : current.metadata().resourceVersion())
                .labels(Map.of(SyncRecord.TARGET_UID_LABEL, uid, SyncRecord.CONTROLLER_LABEL, p.controller))
                .ownerReferences(
                        List.of(new OwnerReference(t.type.apiVersion(), t.type.kind(), t.objectName, uid, null, null)))
                .build();
        SyncRecord next = new SyncRecord(null, null, meta, target, p.component, p.controller, merged);
        SyncRecord stored = current == null ? rc.create(next) : rc.update(next);
        synchronized (written) {
            written.put(t.recordName, stored);
        }
    }

    private void forget(String recordName) {
        synchronized (written) {
            written.remove(recordName);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private String lookUpUid(Target t) {
        ResourceClient rc = client.resource(t.type, (Class) t.type.javaType());
        if (t.type.namespaced()) {
            rc = rc.inNamespace(t.objectNamespace);
        }
        Optional<KubeObject> obj = rc.find(t.objectName);
        return obj.map(KubeObject::uid).orElse(null);
    }

    /** Writes what is pending now and waits for it (at most {@code timeout}); for tests and shutdown. */
    public synchronized boolean flush(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        flushRequested = true;
        notifyAll();
        while (!pending.isEmpty() || writing) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        flushRequested = false;
        return true;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
    }

    /** Where one record goes: the target object and the SyncRecord's namespace and name. */
    record Target(
            ResourceType type,
            String objectNamespace,
            String objectName,
            String namespace,
            String name,
            String recordName) {
        static Target of(LensRecord r) {
            Optional<ResourceType> type = ResourceTypes.byResource(r.resource());
            if (type.isEmpty()
                    || type.get().equals(ResourceTypes.SYNCRECORDS)
                    || type.get().equals(ResourceTypes.EVENTS)) {
                return null;
            }
            String key = r.key();
            int slash = key.indexOf('/');
            String objectNamespace = slash < 0 ? null : key.substring(0, slash);
            String objectName = slash < 0 ? key : key.substring(slash + 1);
            if (objectName.isEmpty() || type.get().namespaced() != (objectNamespace != null)) {
                return null;
            }
            String controller = r.controller() == null ? r.stage() : r.controller();
            String namespace = SyncRecordNames.namespace(objectNamespace);
            String name = SyncRecordNames.name(objectName, type.get().singular(), controller);
            return new Target(type.get(), objectNamespace, objectName, namespace, name, namespace + "/" + name);
        }
    }

    /** The records waiting for one SyncRecord (the newest {@link SyncRecord#MAX_RECORDS}). */
    private static final class Pending {
        final Target target;
        final ArrayDeque<LensRecord> records = new ArrayDeque<>();
        String uid;
        String controller;
        String component;

        Pending(Target target) {
            this.target = target;
        }

        void add(LensRecord r) {
            if (records.size() == SyncRecord.MAX_RECORDS) {
                records.removeFirst(); // superseded: the stored list keeps only the newest anyway
            }
            records.addLast(r);
            uid = r.uid() != null ? r.uid() : uid;
            controller = r.controller() == null ? r.stage() : r.controller();
            component = r.component();
        }
    }
}
