package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import java.time.Duration;
import java.util.Map;

/**
 * One list-watch and one cache for a resource, shared by many handlers. Create through
 * {@link SharedInformerFactory} (or {@link SharedIndexInformer} directly), add handlers and indexes, then
 * {@link #start()}; read the cache through {@link #lister()} once {@link #hasSynced()}.
 */
public interface SharedInformer<T extends KubeObject> {

    /** Registers a handler; if the informer already runs, the handler first gets an add for each cached object. */
    HandlerRegistration addEventHandler(ResourceEventHandler<T> handler);

    /**
     * Like {@link #addEventHandler(ResourceEventHandler)}, and every {@code resyncPeriod} the handler gets
     * {@code onUpdate(obj, obj)} for every cached object (level-triggered safety net). Zero means never.
     */
    HandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod);

    void removeEventHandler(HandlerRegistration registration);

    /** Adds cache indexes; call before {@link #start()} (or any time: existing objects are indexed). */
    void addIndexers(Map<String, IndexFunc<T>> indexers);

    Indexer<T> indexer();

    Lister<T> lister();

    /** Starts the reflector and handler threads; returns immediately. */
    void start();

    /** Stops watching and the handler threads. */
    void stop();

    /** True once the first list has been put into the cache and handed to the handlers. */
    boolean hasSynced();

    /** Waits for {@link #hasSynced()}; false on timeout. */
    boolean waitForSync(Duration timeout) throws InterruptedException;

    /** The resourceVersion the cache reflects. */
    String lastSyncResourceVersion();

    /** A handler's registration; {@link #hasSynced()} is true once it has been given the initial list. */
    interface HandlerRegistration {
        boolean hasSynced();
    }

    /** The lens this informer reports to ({@link io.kplane.client.lens.Lens#NOOP} when off); controllers built on it report there too. */
    default io.kplane.client.lens.Lens lens() {
        return io.kplane.client.lens.Lens.NOOP;
    }
}
