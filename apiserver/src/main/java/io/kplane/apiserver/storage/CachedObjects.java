package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The objects of one resource, kept by a list-watch on the store, for admission that reads other
 * objects: Kubernetes' ServiceAccount admission looks the pod's account up in an informer's lister,
 * not in etcd, and a pod create here must not cost a database read either. Like {@link
 * NamespaceCache}, an object missing from the cache is not proof of absence (the watch may lag, or
 * be restarting): callers then read the store. The objects handed out are shared: read them only.
 * The list-watch is a {@link StoreMirror}.
 */
public final class CachedObjects implements AutoCloseable {
    /** "namespace/name" → the object as last seen. */
    private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();

    private final ResourceType type;
    private final StoreMirror mirror;

    public CachedObjects(Vertx vertx, ResourceStore store, ResourceType type) {
        this.type = type;
        this.mirror = new StoreMirror(vertx, store, type.storageName(), new StoreMirror.Listener() {
            @Override
            public void onList(List<StoredObject> items) {
                objects.clear();
                for (StoredObject o : items) {
                    objects.put(key(o.key().namespace(), o.key().name()), o.object());
                }
            }

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
            public void onWatchEnded() {
                objects.clear(); // may be stale until the next list: callers read the store meanwhile
            }
        });
    }

    public ResourceType type() {
        return type;
    }

    public void start() {
        mirror.start();
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
        mirror.close();
    }
}
