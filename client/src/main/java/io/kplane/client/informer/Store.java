package io.kplane.client.informer;

import java.util.List;

/** A thread-safe object cache keyed {@code namespace/name} (or {@code name} when cluster-scoped). */
public interface Store<T> extends KeyListerGetter<T> {
    void add(T obj);

    void update(T obj);

    void delete(T obj);

    void deleteByKey(String key);

    /** Every cached object, in no particular order. */
    List<T> list();

    int size();

    /** Replaces the whole content. */
    void replace(List<T> objects);
}
