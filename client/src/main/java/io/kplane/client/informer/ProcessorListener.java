package io.kplane.client.informer;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers notifications to one handler, one at a time and in order, through an unbounded buffer, so a
 * slow handler never blocks the informer or the other handlers. The deliveries run on the process's
 * shared {@link HandlerThreads} pool: a listener holds a thread only while its buffer is not empty
 * (client-go's listener goroutine, without a parked thread per handler).
 */
final class ProcessorListener<T> implements SharedInformer.HandlerRegistration {
    private static final Logger log = LoggerFactory.getLogger(ProcessorListener.class);

    private final String name;
    private final ResourceEventHandler<T> handler;
    private final Duration resyncPeriod;
    private final BooleanSupplier informerSynced;
    private final ConcurrentLinkedQueue<Notification<T>> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingInitial = new AtomicInteger();
    private final Executor executor;
    /** True while a task drains {@link #pending}: at most one does, so deliveries stay in order. */
    private final AtomicBoolean draining = new AtomicBoolean();

    private Instant nextResync;
    private volatile boolean started;
    private volatile boolean stopped;
    private volatile io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
    private volatile String resource;

    /** Reports each handler call to {@code lens} and marks it as the trigger of the queue adds it makes. */
    void lens(io.kplane.client.lens.Lens lens, String resource) {
        this.lens = lens;
        this.resource = resource;
    }

    ProcessorListener(
            String name, ResourceEventHandler<T> handler, Duration resyncPeriod, BooleanSupplier informerSynced) {
        this.name = name;
        this.executor = HandlerThreads.executor();
        this.handler = handler;
        this.resyncPeriod = resyncPeriod == null ? Duration.ZERO : resyncPeriod;
        this.informerSynced = informerSynced;
    }

    sealed interface Notification<T> permits Add, Update, Delete {
        boolean initial();
    }

    record Add<T>(T obj, boolean initial) implements Notification<T> {}

    record Update<T>(T oldObj, T newObj) implements Notification<T> {
        @Override
        public boolean initial() {
            return false;
        }
    }

    record Delete<T>(T obj, boolean finalStateUnknown, boolean initial) implements Notification<T> {}

    void add(Notification<T> notification) {
        if (notification.initial()) {
            pendingInitial.incrementAndGet();
        }
        pending.add(notification);
        if (started) {
            scheduleDrain();
        }
    }

    void start() {
        started = true;
        scheduleDrain();
    }

    /** Stops delivering: notifications still buffered are dropped, a delivery under way finishes. */
    void stop() {
        stopped = true;
    }

    private void scheduleDrain() {
        if (!stopped && !pending.isEmpty() && draining.compareAndSet(false, true)) {
            executor.execute(this::drain);
        }
    }

    /** Delivers until the buffer is empty; the thread carries the listener's name meanwhile (logs, dumps). */
    private void drain() {
        Thread thread = Thread.currentThread();
        String poolName = thread.getName();
        thread.setName(name);
        try {
            while (true) {
                Notification<T> n;
                while (!stopped && (n = pending.poll()) != null) {
                    try {
                        dispatch(n);
                    } catch (RuntimeException e) {
                        log.error("informer handler {} failed: {}", name, e.toString(), e);
                    } finally {
                        if (n.initial()) {
                            pendingInitial.decrementAndGet();
                        }
                    }
                }
                draining.set(false);
                // a notification added after the last poll saw draining still set and left it to us
                if (stopped || pending.isEmpty() || !draining.compareAndSet(false, true)) {
                    return;
                }
            }
        } finally {
            thread.setName(poolName);
        }
    }

    private void dispatch(Notification<T> n) {
        io.kplane.client.lens.Lens l = lens;
        if (!l.enabled()) {
            deliver(n);
            return;
        }
        String type;
        Object obj;
        if (n instanceof Add<T> add) {
            type = "ADDED";
            obj = add.obj();
        } else if (n instanceof Update<T> update) {
            obj = update.newObj();
            type = update.oldObj() instanceof io.kplane.api.meta.KubeObject o
                            && obj instanceof io.kplane.api.meta.KubeObject c
                            && o.metadata() != null
                            && c.metadata() != null
                            && java.util.Objects.equals(
                                    o.metadata().resourceVersion(), c.metadata().resourceVersion())
                    ? "RESYNC"
                    : "MODIFIED";
        } else {
            type = "DELETED";
            obj = ((Delete<T>) n).obj();
        }
        String key = null;
        String rv = null;
        if (obj instanceof io.kplane.api.meta.KubeObject k) {
            key = k.key();
            rv = k.metadata() == null ? null : k.metadata().resourceVersion();
        }
        io.kplane.client.lens.LensRecorder.handlingEvent(
                new io.kplane.client.lens.SyncSummary.Trigger(type, resource, key, rv, null));
        try {
            l.record(io.kplane.client.lens.LensRecord.of(
                    null, "handler", type, resource, key, rv, java.util.Map.of("handler", name)));
            deliver(n);
        } finally {
            io.kplane.client.lens.LensRecorder.handlingEvent(null);
        }
    }

    private void deliver(Notification<T> n) {
        if (n instanceof Add<T> add) {
            handler.onAdd(add.obj(), add.initial());
        } else if (n instanceof Update<T> update) {
            handler.onUpdate(update.oldObj(), update.newObj());
        } else if (n instanceof Delete<T> delete) {
            handler.onDelete(delete.obj(), delete.finalStateUnknown());
        }
    }

    ResourceEventHandler<T> handler() {
        return handler;
    }

    Duration resyncPeriod() {
        return resyncPeriod;
    }

    /** True (and the next resync is scheduled) if this listener's resync is due at {@code now}. */
    synchronized boolean resyncDue(Instant now) {
        if (resyncPeriod.isZero() || resyncPeriod.isNegative()) {
            return false;
        }
        if (nextResync == null) {
            nextResync = now.plus(resyncPeriod);
            return false;
        }
        if (now.isBefore(nextResync)) {
            return false;
        }
        nextResync = now.plus(resyncPeriod);
        return true;
    }

    /** When this listener's next resync is due, or null if it never resyncs. */
    synchronized Instant nextResync() {
        return nextResync;
    }

    synchronized void scheduleFirstResync(Instant now) {
        if (nextResync == null && resyncPeriod.compareTo(Duration.ZERO) > 0) {
            nextResync = now.plus(resyncPeriod);
        }
    }

    @Override
    public boolean hasSynced() {
        return informerSynced.getAsBoolean() && pendingInitial.get() == 0;
    }
}
