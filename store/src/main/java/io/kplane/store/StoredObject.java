package io.kplane.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * An object as stored: its JSON (with {@code metadata.resourceVersion} set) and that revision.
 * {@code encoded} is the JSON text the store wrote when this object comes straight from a write
 * (null for reads), for responses that want bytes rather than a tree.
 *
 * <p>A write whose caller handed the store its text ({@link ResourceStore#createEncoded}) has no
 * tree at hand: {@link #object()} parses the text on first use, once, and keeps the tree. A create
 * whose response is the spliced text and whose event nobody on this server watches never builds one
 * (docs/performance.md, "Create throughput: one decode, one encode").
 */
public final class StoredObject {
    private final ResourceKey key;
    private final long revision;
    private final EncodedObject encoded;
    // volatile: a tree parsed on one thread is read by others (the watch hub, an update's base)
    private volatile ObjectNode object;

    public StoredObject(ResourceKey key, long revision, ObjectNode object, EncodedObject encoded) {
        this.key = key;
        this.revision = revision;
        this.object = Objects.requireNonNull(object, "object");
        this.encoded = encoded;
    }

    public StoredObject(ResourceKey key, long revision, ObjectNode object) {
        this(key, revision, object, null);
    }

    private StoredObject(ResourceKey key, long revision, EncodedObject encoded) {
        this.key = key;
        this.revision = revision;
        this.encoded = Objects.requireNonNull(encoded, "encoded");
    }

    /** A written object known by its text only; its tree is parsed when first asked for. */
    public static StoredObject fromEncoded(ResourceKey key, long revision, EncodedObject encoded) {
        return new StoredObject(key, revision, encoded);
    }

    public ResourceKey key() {
        return key;
    }

    public long revision() {
        return revision;
    }

    public EncodedObject encoded() {
        return encoded;
    }

    /**
     * The object as a tree. One parsed from the text is the same tree a read of the row would give
     * (resourceVersion last in metadata, the parser's node types). Two threads asking at once may
     * each parse; both trees are equal and, as every tree shared by the store, read-only.
     */
    public ObjectNode object() {
        ObjectNode tree = object;
        if (tree == null) {
            try {
                tree = (ObjectNode) Json.mapper().readTree(encoded.json(revision));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
            object = tree;
        }
        return tree;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredObject o
                && revision == o.revision
                && key.equals(o.key)
                && object().equals(o.object())
                && Objects.equals(encoded, o.encoded);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, revision, object());
    }

    @Override
    public String toString() {
        return "StoredObject[key=" + key + ", revision=" + revision + ", object=" + object() + "]";
    }
}
