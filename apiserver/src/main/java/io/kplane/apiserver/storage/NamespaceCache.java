package io.kplane.apiserver.storage;

import io.kplane.api.ResourceTypes;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Namespaces known to exist, kept by a list-watch on the store, so that a create in a namespace
 * does not cost a database read (as Kubernetes' NamespaceLifecycle admission uses an informer).
 * A name missing from the cache is not proof of absence: callers then read the store.
 */
public final class NamespaceCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NamespaceCache.class);
    private static final long RETRY_MS = 1000;

    /** name → being deleted. */
    private final Map<String, Boolean> namespaces = new ConcurrentHashMap<>();

    private final Vertx vertx;
    private final ResourceStore store;
    private volatile WatchHandle handle;
    private volatile boolean closed;

    public NamespaceCache(Vertx vertx, ResourceStore store) {
        this.vertx = vertx;
        this.store = store;
    }

    public void start() {
        if (closed) {
            return;
        }
        String resource = ResourceTypes.NAMESPACES.storageName();
        store.list(ListRequest.all(resource, null)).onComplete(ar -> {
            if (ar.failed()) {
                retry();
                return;
            }
            namespaces.clear();
            for (StoredObject o : ar.result().items()) {
                namespaces.put(o.key().name(), Trees.isBeingDeleted(o.object()));
            }
            handle = store.watch(resource, null, ar.result().revision(), new WatchListener() {
                @Override
                public void onEvent(StoreEvent event) {
                    if (event.type() == StoreEvent.Type.DELETED) {
                        namespaces.remove(event.key().name());
                    } else {
                        namespaces.put(event.key().name(), Trees.isBeingDeleted(event.object()));
                    }
                }

                @Override
                public void onError(Throwable error) {
                    LOG.debug("namespace cache watch ended: {}", error.toString());
                    namespaces.clear();
                    retry();
                }
            });
        });
    }

    private void retry() {
        if (!closed) {
            vertx.setTimer(RETRY_MS, id -> start());
        }
    }

    /** True if the namespace is known to exist and is not being deleted. */
    public boolean knownActive(String name) {
        return Boolean.FALSE.equals(namespaces.get(name));
    }

    @Override
    public void close() {
        closed = true;
        WatchHandle h = handle;
        if (h != null) {
            h.close();
        }
    }
}
