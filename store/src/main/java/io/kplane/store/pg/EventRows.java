package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.EncodedObject;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.vertx.sqlclient.Row;

/**
 * Event-log rows as returned by {@code Statements.EVENTS_AFTER / RESOURCE_EVENTS_BETWEEN}, or as this
 * instance's writer made them ({@link WriteOp#complete}, with the written text reusable). The JSON
 * is parsed lazily, once, when the first interested watcher needs the event: the hub reads every
 * resource's events, most of which no watcher on this instance may want.
 */
final class EventRows {
    private EventRows() {}

    static long compacted(Row row) {
        return row.getLong(0);
    }

    /** False for the placeholder row that only carries the compacted revision. */
    static boolean hasEvent(Row row) {
        return row.getLong(1) != null;
    }

    static LoggedEvent read(Row row) {
        return new LoggedEvent(
                row.getLong(1),
                row.getString(2),
                new ResourceKey(row.getString(3), row.getString(4), row.getString(5)),
                row.getString(6),
                row.getString(7),
                row.getLong(8),
                null);
    }

    /** One event-log row, decoded into a {@link StoreEvent} on first use. */
    static final class LoggedEvent {
        final long revision;
        final ResourceKey key;
        private final String type;
        private String object;
        private String prevObject;
        private final Long prevRevision;
        private final EncodedObject encoded;
        private ObjectNode tree;
        private ObjectNode prevTree;
        private StoredObject written;
        private StoreEvent decoded;

        LoggedEvent(
                long revision,
                String type,
                ResourceKey key,
                String object,
                String prevObject,
                Long prevRevision,
                EncodedObject encoded) {
            this(revision, type, key, object, prevObject, prevRevision, encoded, null, null);
        }

        /**
         * An event this instance wrote, with the object already as a tree (read-only, shared) and the
         * previous state too when it was at hand; the text is parsed only for what is missing.
         */
        LoggedEvent(
                long revision,
                String type,
                ResourceKey key,
                String object,
                String prevObject,
                Long prevRevision,
                EncodedObject encoded,
                ObjectNode tree,
                ObjectNode prevTree) {
            this.revision = revision;
            this.type = type;
            this.key = key;
            this.object = object;
            this.prevObject = prevObject;
            this.prevRevision = prevRevision;
            this.encoded = encoded;
            this.tree = tree;
            this.prevTree = prevTree;
        }

        /**
         * A create this instance wrote from the caller's text: the object's tree is {@code written}'s,
         * parsed on first use and shared with the recent-objects entry.
         */
        LoggedEvent(
                long revision,
                ResourceKey key,
                String object,
                Long prevRevision,
                EncodedObject encoded,
                StoredObject written) {
            this(revision, "A", key, object, null, prevRevision, encoded, null, null);
            this.written = written;
        }

        /** Only called on the hub's context. */
        StoreEvent event() {
            if (decoded == null) {
                decoded = decode();
                object = null;
                prevObject = null;
                tree = null;
                prevTree = null;
                written = null;
            }
            return decoded;
        }

        private ObjectNode objectTree() {
            if (tree != null) {
                return tree;
            }
            return written != null ? written.object() : ObjectCodec.decode(object, revision);
        }

        private StoreEvent decode() {
            return switch (type) {
                case "A" -> new StoreEvent(revision, StoreEvent.Type.ADDED, key, objectTree(), null, encoded);
                case "M" -> new StoreEvent(
                        revision,
                        StoreEvent.Type.MODIFIED,
                        key,
                        objectTree(),
                        prevTree != null ? prevTree : ObjectCodec.decode(prevObject, prevRevision),
                        encoded);
                case "D" -> {
                    ObjectNode last = ObjectCodec.decode(object, revision);
                    yield new StoreEvent(
                            revision,
                            StoreEvent.Type.DELETED,
                            key,
                            last,
                            ObjectCodec.stamp(last.deepCopy(), prevRevision));
                }
                default -> throw new IllegalStateException("unknown event type " + type + " at revision " + revision);
            };
        }
    }
}
