package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An object as stored: its JSON (with {@code metadata.resourceVersion} set) and that revision. */
public record StoredObject(ResourceKey key, long revision, ObjectNode object) {
}
