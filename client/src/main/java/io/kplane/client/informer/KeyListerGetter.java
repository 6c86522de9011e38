package io.kplane.client.informer;

import java.util.List;

/** The part of a cache the {@link DeltaFIFO} needs to detect deletions and resync: keys and lookups. */
public interface KeyListerGetter<T> {
    List<String> listKeys();

    /** The object stored under {@code key}, or null. */
    T getByKey(String key);
}
