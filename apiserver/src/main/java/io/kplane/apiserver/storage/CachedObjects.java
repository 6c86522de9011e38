package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
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
 * The objects of one resource, kept by a list-watch on the store, for admission that reads other
 * objects: Kubernetes' ServiceAccount admission looks the pod's account up in an informer's lister,
 * not in etcd, and a pod create here must not cost a database read either. Like {@link
 * NamespaceCache}, an object missing from the cache is not proof of absence (the watch may lag, or
 * be restarting): callers then read the store. The objects handed out are shared: read them only.
 */
public final class CachedObjects implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CachedObjects.class);
    private static final long RETRY_MS = 1000;

    /** "namespace/name" → the object as last seen. */
    private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();

    private final Vertx vertx;
    private final ResourceStore store;
    private final ResourceType type;
    private volatile WatchHandle handle;
    private volatile boolean closed;

    public CachedObjects(Vertx vertx, ResourceStore store, ResourceType type) {
        this.vertx = vertx;
        this.store = store;
        this.type = type;
    }

    public ResourceType type() {
        return type;
    }

    public void start() {
        if (closed) {
            return;
        }
        String resource = type.storageName();
        store.list(ListRequest.all(resource, null)).onComplete(ar -> {
            if (ar.failed()) {
                retry();
                return;
            }
            objects.clear();
            for (StoredObject o : ar.result().items()) {
                objects.put(key(o.key().namespace(), o.key().name()), o.object());
            }
            handle = store.watch(resource, null, ar.result().revision(), new WatchListener() {
                @Override
                public void onEvent(StoreEvent event) {
                    String key = key(event.key().namespace(), event.key().name());
                    if (event.type() == StoreEvent.Type.DELETED) {
                        objects.remove(key);
                    } else {
                        objects.put(key, event.object());
                    }
                }

                @Override
                public void onError(Throwable error) {
                    LOG.debug("{} cache watch ended: {}", resource, error.toString());
                    objects.clear();
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

    /** The object if the cache has seen it (read only), else null: then only the store can say. */
    public ObjectNode get(String namespace, String name) {
        return objects.get(key(namespace, name));
    }

    private static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
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
