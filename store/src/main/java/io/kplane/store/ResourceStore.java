package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

/**
 * Durable, revisioned storage of API objects as JSON, with an ordered event log for watches.
 *
 * <p>Contract (see docs/storage.md):
 * <ul>
 *   <li>One global, strictly increasing revision; every successful create/update/delete takes the
 *       next revision and appends one event-log row; revisions become visible in order (a reader that
 *       sees revision N has seen every revision below N).</li>
 *   <li>{@code metadata.resourceVersion} of a written object is set by the store to its revision.</li>
 *   <li>{@code expectedRevision} 0 means "unconditional"; otherwise a mismatch fails with
 *       {@link StoreException.Conflict}.</li>
 *   <li>Futures fail with {@link StoreException} subclasses only (Unavailable when the database is
 *       down).</li>
 * </ul>
 */
public interface ResourceStore extends AutoCloseable {

    Future<StoredObject> create(ResourceKey key, ObjectNode object);

    /**
     * A create fenced by its parent (a namespaced object's namespace): it commits only if, in the same
     * statement that inserts it, {@code parent} exists and has no {@code metadata.deletionTimestamp};
     * otherwise it fails with {@link StoreException.ParentMissing} or {@link StoreException.ParentTerminating}
     * and takes no revision. The check and the insert are one statement under the revision lock every
     * writer holds, so no create can slip in after the parent's deletion started (docs/storage.md).
     */
    Future<StoredObject> create(ResourceKey key, ObjectNode object, ResourceKey parent);

    /**
     * {@link #create(ResourceKey, ObjectNode, ResourceKey)} of an object the caller already encoded
     * in the stored form ({@link EncodedObject}: no {@code metadata.resourceVersion}, the end of
     * {@code metadata} marked), so the store writes that text as it is instead of serialising a tree.
     * The result's tree is parsed only if someone asks for it ({@link StoredObject#object()}).
     * {@code parent} may be null (no fence), as for the tree's create. This default parses the text and
     * writes the tree.
     */
    default Future<StoredObject> createEncoded(ResourceKey key, EncodedObject object, ResourceKey parent) {
        ObjectNode tree;
        try {
            tree = (ObjectNode) io.kplane.api.json.Json.mapper().readTree(object.stored());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Future.failedFuture(new IllegalArgumentException("not JSON: " + e.getMessage(), e));
        }
        return create(key, tree, parent);
    }

    Future<StoredObject> update(ResourceKey key, ObjectNode object, long expectedRevision);

    /** Removes the object; the result is its last state, stamped with the deletion's revision. */
    Future<StoredObject> delete(ResourceKey key, long expectedRevision);

    Future<StoredObject> get(ResourceKey key);

    /**
     * The object as the base of an update: possibly from memory and then possibly stale, so the
     * caller must only use it for a write conditional on its revision (which fails with
     * {@link StoreException.Conflict} if it was stale) and must redo anything else it would conclude
     * from it (an error, "nothing to change") from {@link #get}.
     */
    default Future<StoredObject> getForUpdate(ResourceKey key) {
        return get(key);
    }

    Future<ListPage> list(ListRequest request);

    /** The store's current revision (the newest committed write). */
    Future<Long> currentRevision();

    /**
     * Succeeds when writes can be committed now (for {@code /readyz}); fails with a reason when the
     * writer is stuck, its queue is full, or its last batch failed and a probe still fails.
     */
    default Future<Void> writerReady() {
        return Future.succeededFuture();
    }

    /**
     * Delivers every event of {@code resource} (in {@code namespace}, or all when null) with
     * revision &gt; {@code fromRevision}, in order, exactly once, then live events as they commit.
     * Fails the listener with {@link StoreException.Expired} if {@code fromRevision} was compacted.
     */
    WatchHandle watch(String resource, String namespace, long fromRevision, WatchListener listener);

    /** Removes event-log rows older than the configured window; returns the new compacted revision. */
    Future<Long> compact();

    @Override
    void close();
}
