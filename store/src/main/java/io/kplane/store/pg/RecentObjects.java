package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoredObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last state of recently written objects, as this store instance wrote them: the usual base of
 * the next update of the same object (a kubelet's status after the scheduler's binding, a controller
 * removing a finalizer after a status change), served without a database read or a parse.
 *
 * <p>An entry may be stale (another instance wrote since, or its event has not been read yet), so
 * it is only ever used as the base of a write conditional on its revision, which then fails with a
 * conflict and is redone from the database. Events read from the log (other instances' writes)
 * evict the key. Shared objects are read-only: whoever changes one changes a copy.
 */
final class RecentObjects {
    private final int capacity;
    private final Map<ResourceKey, StoredObject> byKey;

    RecentObjects(int capacity) {
        this.capacity = capacity;
        this.byKey = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ResourceKey, StoredObject> eldest) {
                return size() > RecentObjects.this.capacity;
            }
        };
    }

    synchronized StoredObject get(ResourceKey key) {
        return byKey.get(key);
    }

    /** The object at exactly {@code revision}, if that is what is kept for the key. */
    synchronized ObjectNode at(ResourceKey key, Long revision) {
        StoredObject kept = byKey.get(key);
        return kept != null && revision != null && kept.revision() == revision ? kept.object() : null;
    }

    synchronized void written(StoredObject object) {
        if (capacity <= 0) {
            return;
        }
        StoredObject kept = byKey.get(object.key());
        if (kept == null || kept.revision() < object.revision()) {
            byKey.put(object.key(), object);
        }
    }

    /** The key changed (deleted here, or written by someone else) at {@code revision}. */
    synchronized void changed(ResourceKey key, long revision) {
        StoredObject kept = byKey.get(key);
        if (kept != null && kept.revision() < revision) {
            byKey.remove(key);
        }
    }
}
