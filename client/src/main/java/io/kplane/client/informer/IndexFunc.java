package io.kplane.client.informer;

import java.util.Collection;

/** Computes the values an object is indexed under (zero, one or many). */
@FunctionalInterface
public interface IndexFunc<T> {
    Collection<String> values(T obj);
}
