package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An object as stored: its JSON (with {@code metadata.resourceVersion} set) and that revision.
 * {@code encoded} is the JSON text the store wrote when this object comes straight from a write
 * (null for reads), for responses that want bytes rather than a tree.
 */
public record StoredObject(ResourceKey key, long revision, ObjectNode object, EncodedObject encoded) {
    public StoredObject(ResourceKey key, long revision, ObjectNode object) {
        this(key, revision, object, null);
    }
}
