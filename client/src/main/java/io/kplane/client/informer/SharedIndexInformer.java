package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SharedInformer}: a {@link Reflector} fills a {@link DeltaFIFO}; one thread pops it, applies
 * each delta to the {@link CacheIndexer} and hands a notification to every {@link ProcessorListener}.
 *
 * <p>On relist, objects whose resourceVersion did not change produce no notification (except for
 * handlers whose resync is due), so handlers see only the difference.
 */
public final class SharedIndexInformer<T extends KubeObject> implements SharedInformer<T> {
    private static final Logger log = LoggerFactory.getLogger(SharedIndexInformer.class);

    private final String name;
    private final Clock clock;
    private final CacheIndexer<T> indexer;
    private final DeltaFIFO<T> fifo;
    private final Reflector<T> reflector;
    private final Lister<T> lister;
    private final CopyOnWriteArrayList<ProcessorListener<T>> listeners = new CopyOnWriteArrayList<>();
    /** Serialises delta handling against handler registration, so a new handler's replay is consistent. */
    private final ReentrantLock deltaLock = new ReentrantLock();

    private volatile Set<ProcessorListener<T>> syncingListeners = Set.of();
    private volatile boolean started;
    private volatile boolean stopped;
    private Thread reflectorThread;
    private Thread processorThread;
    private Clock.Timer resyncTimer;

    public SharedIndexInformer(
            String name,
            ListerWatcher<T> listerWatcher,
            Clock clock,
            ReflectorOptions options,
            Map<String, IndexFunc<T>> indexers) {
        this.name = name;
        this.clock = clock;
        this.indexer = new CacheIndexer<>(indexers);
        this.fifo = new DeltaFIFO<>(indexer);
        this.reflector = new Reflector<>(name, listerWatcher, fifo, clock, options);
        this.lister = new Lister<>(indexer);
    }

    /** With the standard indexes and default options on the system clock. */
    public SharedIndexInformer(String name, ListerWatcher<T> listerWatcher) {
        this(name, listerWatcher, Clock.system(), ReflectorOptions.DEFAULT, Indexers.standard());
    }

    private volatile io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;

    /**
     * Reports this informer's machinery to {@code lens}: reflector lists/watches/events, DeltaFIFO
     * adds/pops/depth, cache size ({@code cacheObjects.<name>}) and each handler call. Call before
     * adding handlers.
     */
    @Override
    public io.kplane.client.lens.Lens lens() {
        return lens;
    }

    public void lens(io.kplane.client.lens.Lens lens) {
        this.lens = lens;
        reflector.lens(lens, name);
        fifo.lens(lens, name);
        lens.registerGauge("cacheObjects." + name, indexer::size);
        for (ProcessorListener<T> listener : listeners) {
            listener.lens(lens, name);
        }
    }

    @Override
    public HandlerRegistration addEventHandler(ResourceEventHandler<T> handler) {
        return addEventHandler(handler, Duration.ZERO);
    }

    @Override
    public HandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod) {
        Objects.requireNonNull(handler);
        ProcessorListener<T> listener =
                new ProcessorListener<>(name + "-handler-" + listeners.size(), handler, resyncPeriod, fifo::hasSynced);
        listener.lens(lens, name);
        deltaLock.lock();
        try {
            if (started) {
                for (T obj : indexer.list()) {
                    listener.add(new ProcessorListener.Add<>(obj, true));
                }
                listener.scheduleFirstResync(clock.now());
                listener.start();
            }
            listeners.add(listener);
        } finally {
            deltaLock.unlock();
        }
        if (resyncPeriod != null && resyncPeriod.compareTo(Duration.ZERO) > 0) {
            scheduleResyncCheck();
        }
        return listener;
    }

    @Override
    public void removeEventHandler(HandlerRegistration registration) {
        if (registration instanceof ProcessorListener<?> listener && listeners.remove(listener)) {
            listener.stop();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunc<T>> indexers) {
        indexer.addIndexers(indexers);
    }

    @Override
    public Indexer<T> indexer() {
        return indexer;
    }

    @Override
    public Lister<T> lister() {
        return lister;
    }

    public Reflector<T> reflector() {
        return reflector;
    }

    /** When the reflector last heard from the server (an event, a bookmark or a list); null before. */
    public java.time.Instant lastEventTime() {
        return reflector.lastEventTime();
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        deltaLock.lock();
        try {
            started = true;
            Instant now = clock.now();
            for (ProcessorListener<T> listener : listeners) {
                listener.scheduleFirstResync(now);
                listener.start();
            }
        } finally {
            deltaLock.unlock();
        }
        processorThread = DaemonThreads.newThread(name + "-informer", this::processLoop);
        processorThread.start();
        reflectorThread = DaemonThreads.newThread(name + "-reflector", reflector::run);
        reflectorThread.start();
        scheduleResyncCheck();
        log.info("informer {} started", name);
    }

    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        reflector.stop();
        fifo.close();
        if (resyncTimer != null) {
            resyncTimer.cancel();
        }
        listeners.forEach(ProcessorListener::stop);
        log.info("informer {} stopped", name);
    }

    @Override
    public boolean hasSynced() {
        return fifo.hasSynced();
    }

    @Override
    public boolean waitForSync(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!hasSynced()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return true;
    }

    @Override
    public String lastSyncResourceVersion() {
        return reflector.lastSyncResourceVersion();
    }

    private void processLoop() {
        try {
            while (fifo.pop(this::handleDeltas)) {
                // each pop applies one key's deltas
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Applies deltas oldest first to the cache and notifies the listeners. Runs under the FIFO lock. */
    private void handleDeltas(List<Delta<T>> deltas, boolean isInInitialList) {
        deltaLock.lock();
        try {
            for (Delta<T> delta : deltas) {
                T obj = delta.object();
                switch (delta.type()) {
                    case SYNC, REPLACED, ADDED, UPDATED -> {
                        T old = indexer.getByKey(obj.key());
                        if (old != null) {
                            indexer.update(obj);
                            boolean isSync = delta.type() == DeltaType.SYNC
                                    || (delta.type() == DeltaType.REPLACED && sameVersion(old, obj));
                            distribute(new ProcessorListener.Update<>(old, obj), isSync);
                        } else {
                            indexer.add(obj);
                            distribute(new ProcessorListener.Add<>(obj, isInInitialList), false);
                        }
                    }
                    case DELETED -> {
                        indexer.deleteByKey(obj.key());
                        distribute(
                                new ProcessorListener.Delete<>(obj, delta.finalStateUnknown(), isInInitialList), false);
                    }
                }
            }
        } finally {
            deltaLock.unlock();
        }
    }

    private static boolean sameVersion(KubeObject a, KubeObject b) {
        String ra = a.metadata() == null ? null : a.metadata().resourceVersion();
        String rb = b.metadata() == null ? null : b.metadata().resourceVersion();
        return ra != null && ra.equals(rb);
    }

    private void distribute(ProcessorListener.Notification<T> notification, boolean isSync) {
        if (isSync) {
            for (ProcessorListener<T> listener : syncingListeners) {
                listener.add(notification);
            }
        } else {
            for (ProcessorListener<T> listener : listeners) {
                listener.add(notification);
            }
        }
    }

    /** Sets the resync timer for the earliest listener resync; no timer when no handler resyncs. */
    private synchronized void scheduleResyncCheck() {
        if (stopped || !started) {
            return;
        }
        Instant earliest = null;
        for (ProcessorListener<T> listener : listeners) {
            Instant next = listener.nextResync();
            if (next != null && (earliest == null || next.isBefore(earliest))) {
                earliest = next;
            }
        }
        if (resyncTimer != null) {
            resyncTimer.cancel();
            resyncTimer = null;
        }
        if (earliest != null) {
            Duration delay = Duration.between(clock.now(), earliest);
            resyncTimer = clock.schedule(delay.isNegative() ? Duration.ZERO : delay, this::resyncCheck);
        }
    }

    private void resyncCheck() {
        Instant now = clock.now();
        Set<ProcessorListener<T>> due = new java.util.HashSet<>();
        for (ProcessorListener<T> listener : listeners) {
            if (listener.resyncDue(now)) {
                due.add(listener);
            }
        }
        if (!due.isEmpty()) {
            syncingListeners = Set.copyOf(due);
            fifo.resync();
        }
        scheduleResyncCheck();
    }
}
