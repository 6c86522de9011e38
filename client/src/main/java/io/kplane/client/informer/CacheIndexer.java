package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The informer's local cache: objects by key plus, per index, a map from index value to the keys of the
 * objects that have it. Readers share a read lock; every write updates the object and its index entries
 * under the write lock, so a reader never sees an object without its index entries.
 */
public final class CacheIndexer<T extends KubeObject> implements Indexer<T> {
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, T> items = new HashMap<>();
    private final Map<String, IndexFunc<T>> indexers = new HashMap<>();
    private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

    public CacheIndexer() {}

    public CacheIndexer(Map<String, IndexFunc<T>> indexers) {
        addIndexers(indexers);
    }

    /** A cache with the {@link Indexers#standard()} indexes. */
    public static <T extends KubeObject> CacheIndexer<T> withStandardIndexes() {
        return new CacheIndexer<>(Indexers.standard());
    }

    @Override
    public void add(T obj) {
        put(obj);
    }

    @Override
    public void update(T obj) {
        put(obj);
    }

    private void put(T obj) {
        String key = obj.key();
        lock.writeLock().lock();
        try {
            T old = items.put(key, obj);
            reindex(key, old, obj);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void delete(T obj) {
        deleteByKey(obj.key());
    }

    @Override
    public void deleteByKey(String key) {
        lock.writeLock().lock();
        try {
            T old = items.remove(key);
            if (old != null) {
                reindex(key, old, null);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void replace(List<T> objects) {
        lock.writeLock().lock();
        try {
            items.clear();
            indices.values().forEach(Map::clear);
            for (T obj : objects) {
                String key = obj.key();
                items.put(key, obj);
                reindex(key, null, obj);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<T> list() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> listKeys() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public T getByKey(String key) {
        lock.readLock().lock();
        try {
            return items.get(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return items.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunc<T>> newIndexers) {
        lock.writeLock().lock();
        try {
            for (String name : newIndexers.keySet()) {
                if (indexers.containsKey(name)) {
                    throw new IllegalArgumentException("index " + name + " already exists");
                }
            }
            indexers.putAll(newIndexers);
            for (Map.Entry<String, IndexFunc<T>> entry : newIndexers.entrySet()) {
                Map<String, Set<String>> index = indices.computeIfAbsent(entry.getKey(), n -> new HashMap<>());
                items.forEach((key, obj) -> addToIndex(index, entry.getValue(), key, obj));
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        lock.readLock().lock();
        try {
            Set<String> keys = index(indexName).getOrDefault(value, Set.of());
            List<T> result = new ArrayList<>(keys.size());
            for (String key : keys) {
                result.add(items.get(key));
            }
            return result;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Set<String> indexKeys(String indexName, String value) {
        lock.readLock().lock();
        try {
            return Set.copyOf(index(indexName).getOrDefault(value, Set.of()));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Set<String> indexValues(String indexName) {
        lock.readLock().lock();
        try {
            return Set.copyOf(index(indexName).keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Set<String> indexNames() {
        lock.readLock().lock();
        try {
            return Set.copyOf(indexers.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    private Map<String, Set<String>> index(String indexName) {
        Map<String, Set<String>> index = indices.get(indexName);
        if (index == null) {
            throw new IllegalArgumentException("no index named " + indexName + "; have " + indexers.keySet());
        }
        return index;
    }

    /** Caller holds the write lock. */
    private void reindex(String key, T old, T obj) {
        for (Map.Entry<String, IndexFunc<T>> entry : indexers.entrySet()) {
            Map<String, Set<String>> index = indices.get(entry.getKey());
            if (old != null) {
                for (String value : Indexers.safe(entry.getValue().values(old))) {
                    Set<String> keys = index.get(value);
                    if (keys != null) {
                        keys.remove(key);
                        if (keys.isEmpty()) {
                            index.remove(value);
                        }
                    }
                }
            }
            if (obj != null) {
                addToIndex(index, entry.getValue(), key, obj);
            }
        }
    }

    private void addToIndex(Map<String, Set<String>> index, IndexFunc<T> func, String key, T obj) {
        Collection<String> values = Indexers.safe(func.values(obj));
        for (String value : values) {
            index.computeIfAbsent(value, v -> new HashSet<>(4)).add(key);
        }
    }
}
