package io.kplane.client.informer;

import java.util.List;

/** Where a {@link Reflector} puts what it lists and watches (a {@link DeltaFIFO} in an informer). */
public interface ReflectorStore<T> {
    void add(T obj);

    void update(T obj);

    void delete(T obj);

    /** The complete state as of {@code resourceVersion}, after a (re)list. */
    void replace(List<T> objects, String resourceVersion);
}
