package io.kplane.apiserver.storage;

import io.kplane.api.ResourceTypes;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Namespaces known to exist, kept by a list-watch on the store, so that a create in a namespace
 * does not cost a database read (as Kubernetes' NamespaceLifecycle admission uses an informer).
 * A name missing from the cache is not proof of absence: callers then read the store. The list-watch
 * is a {@link StoreMirror}.
 */
public final class NamespaceCache implements AutoCloseable {
    /** name → being deleted. */
    private final Map<String, Boolean> namespaces = new ConcurrentHashMap<>();

    private final StoreMirror mirror;

    public NamespaceCache(Vertx vertx, ResourceStore store) {
        this.mirror = new StoreMirror(vertx, store, ResourceTypes.NAMESPACES.storageName(), new StoreMirror.Listener() {
            @Override
            public void onList(List<StoredObject> items) {
                namespaces.clear();
                for (StoredObject o : items) {
                    namespaces.put(o.key().name(), Trees.isBeingDeleted(o.object()));
                }
            }

            @Override
            public void onEvent(StoreEvent event) {
                if (event.type() == StoreEvent.Type.DELETED) {
                    namespaces.remove(event.key().name());
                } else {
                    namespaces.put(event.key().name(), Trees.isBeingDeleted(event.object()));
                }
            }

            @Override
            public void onWatchEnded() {
                namespaces.clear(); // may be stale until the next list: callers read the store meanwhile
            }
        });
    }

    public void start() {
        mirror.start();
    }

    /** True if the namespace is known to exist and is not being deleted. */
    public boolean knownActive(String name) {
        return Boolean.FALSE.equals(namespaces.get(name));
    }

    @Override
    public void close() {
        mirror.close();
    }
}
