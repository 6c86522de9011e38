package io.kplane.client.informer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** A {@link Store} with named secondary indexes, e.g. pods by owner UID or by node name. */
public interface Indexer<T> extends Store<T> {

    /** Adds indexes; existing objects are indexed at once. Names must be new. */
    void addIndexers(Map<String, IndexFunc<T>> indexers);

    /** Objects whose index {@code indexName} contains {@code value}. */
    List<T> byIndex(String indexName, String value);

    /** Keys of the objects whose index {@code indexName} contains {@code value}. */
    Set<String> indexKeys(String indexName, String value);

    /** Every value index {@code indexName} currently holds. */
    Set<String> indexValues(String indexName);

    Set<String> indexNames();
}
