package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.EncodedObject;
import io.kplane.store.StoredObject;

/**
 * The outcome of a create, update or patch: the object as stored and whether it was created. When
 * the object comes straight from a store write, {@code encoded} is the JSON the store wrote and
 * {@code revision} its revision, so a JSON response is a splice rather than a serialisation; the
 * tree is then asked of the store's result only when wanted (a Table, another renderer), since a
 * create written from its text has none until then.
 */
public final class WriteResult {
    private final ObjectNode object;
    private final StoredObject stored;
    private final boolean created;

    public WriteResult(ObjectNode object, boolean created) {
        this.object = object;
        this.stored = null;
        this.created = created;
    }

    private WriteResult(StoredObject stored, boolean created) {
        this.object = null;
        this.stored = stored;
        this.created = created;
    }

    static WriteResult written(StoredObject stored, boolean created) {
        return new WriteResult(stored, created);
    }

    public ObjectNode object() {
        return stored != null ? stored.object() : object;
    }

    public boolean created() {
        return created;
    }

    /** The JSON the store wrote, or null when only the tree is at hand. */
    public EncodedObject encoded() {
        return stored == null ? null : stored.encoded();
    }

    /** The revision of the write (0 when only the tree is at hand). */
    public long revision() {
        return stored == null ? 0 : stored.revision();
    }

    /** The object's JSON as UTF-8 without serialising it, or null when only the tree is at hand. */
    public byte[] encodedJson() {
        EncodedObject encoded = encoded();
        return encoded == null ? null : encoded.utf8(stored.revision());
    }
}
