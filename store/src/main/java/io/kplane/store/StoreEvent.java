package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One row of the event log. {@code object} is the state after the write (for DELETED: the last
 * state, with {@code metadata.resourceVersion} = the deletion's revision, as Kubernetes reports it);
 * {@code previous} is the state before the write ({@code null} for ADDED). Watchers with selectors
 * need both to turn a MODIFIED into ADDED/DELETED when an object starts/stops matching.
 */
public record StoreEvent(long revision, Type type, ResourceKey key, ObjectNode object, ObjectNode previous) {
    public enum Type { ADDED, MODIFIED, DELETED }
}
