package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreEvent;
import io.vertx.sqlclient.Row;

/** Decodes event-log rows as returned by {@code Statements.EVENTS_AFTER / RESOURCE_EVENTS_BETWEEN}. */
final class EventRows {
    private EventRows() {
    }

    static long compacted(Row row) {
        return row.getLong(0);
    }

    /** False for the placeholder row that only carries the compacted revision. */
    static boolean hasEvent(Row row) {
        return row.getLong(1) != null;
    }

    static StoreEvent decode(Row row) {
        long revision = row.getLong(1);
        String type = row.getString(2);
        ResourceKey key = new ResourceKey(row.getString(3), row.getString(4), row.getString(5));
        String object = row.getString(6);
        String prevObject = row.getString(7);
        Long prevRevision = row.getLong(8);
        return switch (type) {
            case "A" -> new StoreEvent(revision, StoreEvent.Type.ADDED, key, ObjectCodec.decode(object, revision), null);
            case "M" -> new StoreEvent(revision, StoreEvent.Type.MODIFIED, key, ObjectCodec.decode(object, revision),
                    ObjectCodec.decode(prevObject, prevRevision));
            case "D" -> {
                ObjectNode last = ObjectCodec.decode(object, revision);
                yield new StoreEvent(revision, StoreEvent.Type.DELETED, key, last,
                        ObjectCodec.stamp(last.deepCopy(), prevRevision));
            }
            default -> throw new IllegalStateException("unknown event type " + type + " at revision " + revision);
        };
    }
}
