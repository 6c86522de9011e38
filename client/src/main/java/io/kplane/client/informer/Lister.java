package io.kplane.client.informer;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.LabelSelector;
import io.kplane.api.meta.ObjectKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Read-only queries over an {@link Indexer}, the way controllers read the cache. Objects are shared with
 * the cache: they are immutable records, so callers copy with withers rather than mutate.
 */
public final class Lister<T extends KubeObject> {
    private final Indexer<T> indexer;
    private final String namespace;

    public Lister(Indexer<T> indexer) {
        this(indexer, null);
    }

    private Lister(Indexer<T> indexer, String namespace) {
        this.indexer = indexer;
        this.namespace = namespace;
    }

    /** A view restricted to one namespace (uses the namespace index when present). */
    public Lister<T> namespace(String ns) {
        return new Lister<>(indexer, ns);
    }

    /** The object named {@code name} (in this view's namespace, or cluster-scoped if none). */
    public Optional<T> get(String name) {
        return Optional.ofNullable(indexer.getByKey(ObjectKeys.of(namespace, name)));
    }

    public Optional<T> get(String ns, String name) {
        return Optional.ofNullable(indexer.getByKey(ObjectKeys.of(ns, name)));
    }

    public List<T> list() {
        if (namespace == null) {
            return indexer.list();
        }
        if (indexer.indexNames().contains(Indexers.NAMESPACE)) {
            return indexer.byIndex(Indexers.NAMESPACE, namespace);
        }
        return filter(indexer.list(), o -> namespace.equals(o.namespace()));
    }

    public List<T> list(Predicate<? super T> predicate) {
        return filter(list(), predicate);
    }

    /** Objects whose labels include every entry of {@code labels}. */
    public List<T> list(Map<String, String> labels) {
        return list(o -> LabelMatcher.matches(labels, o));
    }

    /** Objects matching a {@link LabelSelector} (matchLabels and matchExpressions). */
    public List<T> list(LabelSelector selector) {
        return list(o -> LabelMatcher.matches(selector, o));
    }

    /** Objects with an owner reference to {@code ownerUid}, e.g. a Job's pods (in this view's namespace). */
    public List<T> ownedBy(String ownerUid) {
        List<T> owned = indexer.indexNames().contains(Indexers.OWNER_UID)
                ? indexer.byIndex(Indexers.OWNER_UID, ownerUid)
                : filter(
                        indexer.list(),
                        o -> o.metadata() != null
                                && o.metadata().ownerReferencesOrEmpty().stream()
                                        .anyMatch(r -> ownerUid.equals(r.uid())));
        return namespace == null ? owned : filter(owned, o -> namespace.equals(o.namespace()));
    }

    public List<T> byIndex(String indexName, String value) {
        List<T> found = indexer.byIndex(indexName, value);
        return namespace == null ? found : filter(found, o -> namespace.equals(o.namespace()));
    }

    private static <T> List<T> filter(List<T> items, Predicate<? super T> predicate) {
        List<T> result = new ArrayList<>();
        for (T item : items) {
            if (predicate.test(item)) {
                result.add(item);
            }
        }
        return result;
    }
}
