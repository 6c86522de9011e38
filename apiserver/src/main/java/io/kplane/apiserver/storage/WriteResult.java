package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.EncodedObject;
import io.kplane.store.StoredObject;

/**
 * The outcome of a create, update or patch: the object as stored and whether it was created. When
 * the object comes straight from a store write, {@code encoded} is the JSON the store wrote and
 * {@code revision} its revision, so a JSON response is a splice rather than a serialisation.
 */
public record WriteResult(ObjectNode object, boolean created, EncodedObject encoded, long revision) {
    public WriteResult(ObjectNode object, boolean created) {
        this(object, created, null, 0);
    }

    static WriteResult written(StoredObject stored, boolean created) {
        return new WriteResult(stored.object(), created, stored.encoded(), stored.revision());
    }

    /** The object's JSON as UTF-8 without serialising it, or null when only the tree is at hand. */
    public byte[] encodedJson() {
        return encoded == null ? null : encoded.utf8(revision);
    }
}
