package io.kplane.client.informer;

import io.kplane.api.util.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers notifications to one handler on its own thread through an unbounded buffer, so a slow
 * handler never blocks the informer or the other handlers.
 */
final class ProcessorListener<T> implements SharedInformer.HandlerRegistration {
    private static final Logger log = LoggerFactory.getLogger(ProcessorListener.class);

    private final String name;
    private final ResourceEventHandler<T> handler;
    private final Duration resyncPeriod;
    private final BooleanSupplier informerSynced;
    private final LinkedBlockingQueue<Notification<T>> pending = new LinkedBlockingQueue<>();
    private final AtomicInteger pendingInitial = new AtomicInteger();
    private Instant nextResync;
    private Thread thread;
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
    }

    synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = DaemonThreads.newThread(name, this::run);
        thread.start();
    }

    void stop() {
        stopped = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.interrupt();
        }
    }

    private void run() {
        try {
            while (!stopped) {
                Notification<T> n = pending.take();
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
        } catch (InterruptedException e) {
            // stopped
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
