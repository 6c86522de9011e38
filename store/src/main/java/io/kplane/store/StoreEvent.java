package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One row of the event log. {@code object} is the state after the write (for DELETED: the last
 * state, with {@code metadata.resourceVersion} = the deletion's revision, as Kubernetes reports it);
 * {@code previous} is the state before the write ({@code null} for ADDED). Watchers with selectors
 * need both to turn a MODIFIED into ADDED/DELETED when an object starts/stops matching.
 * {@code encoded} is {@code object}'s JSON as written, when the event comes from this store
 * instance's own write (null otherwise): encoders may splice it instead of serialising {@code object}.
 */
public record StoreEvent(
        long revision, Type type, ResourceKey key, ObjectNode object, ObjectNode previous, EncodedObject encoded) {
    public enum Type {
        ADDED,
        MODIFIED,
        DELETED
    }

    public StoreEvent(long revision, Type type, ResourceKey key, ObjectNode object, ObjectNode previous) {
        this(revision, type, key, object, previous, null);
    }
}
