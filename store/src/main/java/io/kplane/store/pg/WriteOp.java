package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.EncodedObject;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Row;

/**
 * One queued write. {@link Statements#APPLY_ROUND} (or, in a small batch, {@link Statements#APPLY_WRITES})
 * checks its precondition and, only when it holds,
 * gives it the next revision, writes the object and appends the event-log row. A failed
 * precondition yields a row describing why instead of an SQL error, so it never aborts the batch.
 */
final class WriteOp {
    enum Kind {
        CREATE,
        UPDATE,
        DELETE
    }

    final Kind kind;
    final ResourceKey key;
    final ObjectNode object; // CREATE/UPDATE: the caller's object (copied); null for DELETE and an encoded create
    final String data; // its stored form
    final EncodedObject encoded; // the same, reusable by responses (null for DELETE)
    final long expectedRevision;
    /** CREATE only, may be null: the object that must exist and not be being deleted for the create to commit. */
    final ResourceKey parent;

    final Promise<StoredObject> promise;

    /** A create whose stored text the caller made ({@code ResourceStore.createEncoded}): no tree, no copy. */
    private WriteOp(ResourceKey key, EncodedObject encoded, ResourceKey parent, Promise<StoredObject> promise) {
        this.kind = Kind.CREATE;
        this.key = key;
        this.parent = parent;
        this.object = null;
        this.data = encoded.stored();
        this.encoded = encoded;
        this.expectedRevision = 0;
        this.promise = promise;
    }

    private WriteOp(
            Kind kind,
            ResourceKey key,
            ObjectNode object,
            long expectedRevision,
            ResourceKey parent,
            Promise<StoredObject> promise) {
        this.kind = kind;
        this.key = key;
        this.parent = parent;
        this.object = object == null ? null : object.deepCopy();
        ObjectCodec.Encoded stored = this.object == null ? null : ObjectCodec.encodeOwned(this.object);
        this.data = stored == null ? null : stored.text();
        this.encoded = stored == null ? null : stored.reusable();
        this.expectedRevision = expectedRevision;
        this.promise = promise;
    }

    static WriteOp create(ResourceKey key, ObjectNode object, ResourceKey parent, Promise<StoredObject> promise) {
        return new WriteOp(Kind.CREATE, key, object, 0, parent, promise);
    }

    static WriteOp createEncoded(
            ResourceKey key, EncodedObject encoded, ResourceKey parent, Promise<StoredObject> promise) {
        return new WriteOp(key, encoded, parent, promise);
    }

    static WriteOp update(ResourceKey key, ObjectNode object, long expectedRevision, Promise<StoredObject> promise) {
        return new WriteOp(Kind.UPDATE, key, object, expectedRevision, null, promise);
    }

    static WriteOp delete(ResourceKey key, long expectedRevision, Promise<StoredObject> promise) {
        return new WriteOp(Kind.DELETE, key, null, expectedRevision, null, promise);
    }

    /** The statement's kind code, also the event-log type: A(dded), M(odified), D(eleted). */
    String kindCode() {
        return switch (kind) {
            case CREATE -> "A";
            case UPDATE -> "M";
            case DELETE -> "D";
        };
    }

    /**
     * Completes the caller's future from the statement's result row (new_rev, cur_rev, old_data,
     * parent_state) and
     * returns the event-log entry the write made, or null if its precondition failed. A written
     * object is also kept in {@code recent} (before the caller hears of it, so its next update finds
     * it); that copy is shared, read-only, with the event.
     */
    EventRows.LoggedEvent complete(Row row, RecentObjects recent) {
        Long newRevision = row.getLong(0);
        Long currentRevision = row.getLong(1);
        if (newRevision != null) {
            String oldData = row.getString(2);
            if (kind == Kind.DELETE) {
                recent.changed(key, newRevision);
                promise.tryComplete(new StoredObject(key, newRevision, ObjectCodec.decode(oldData, newRevision)));
                return new EventRows.LoggedEvent(newRevision, "D", key, oldData, null, currentRevision, null);
            }
            if (object == null) {
                // an encoded create: the caller and the recent-objects entry each get a tree parsed
                // from the text on first use; the event shares the entry's, so one parse serves the
                // watchers and the next update's base, and none happens if neither comes
                StoredObject kept = StoredObject.fromEncoded(key, newRevision, encoded);
                recent.written(kept);
                promise.tryComplete(StoredObject.fromEncoded(key, newRevision, encoded));
                return new EventRows.LoggedEvent(newRevision, key, data, currentRevision, encoded, kept);
            }
            ObjectNode result = ObjectCodec.stamp(object, newRevision);
            ObjectNode shared = ObjectCodec.parsedFormCopy(result);
            // the state this update replaced, if it is the one kept (it usually is: it was the update's base)
            ObjectNode previous = kind == Kind.UPDATE ? recent.at(key, currentRevision) : null;
            recent.written(new StoredObject(key, newRevision, shared, encoded));
            promise.tryComplete(new StoredObject(key, newRevision, result, encoded));
            return kind == Kind.CREATE
                    ? new EventRows.LoggedEvent(
                            newRevision, "A", key, data, null, currentRevision, encoded, shared, null)
                    : new EventRows.LoggedEvent(
                            newRevision, "M", key, data, oldData, currentRevision, encoded, shared, previous);
        } else if (kind == Kind.CREATE && parent != null && !"L".equals(row.getString(3))) {
            // the parent's state comes first, as admission runs before storage in Kubernetes
            promise.tryFail(
                    "T".equals(row.getString(3))
                            ? new StoreException.ParentTerminating(parent)
                            : new StoreException.ParentMissing(parent));
        } else if (kind == Kind.CREATE) {
            promise.tryFail(new StoreException.AlreadyExists(key));
        } else if (currentRevision == null) {
            promise.tryFail(new StoreException.NotFound(key));
        } else {
            promise.tryFail(new StoreException.Conflict(key, expectedRevision, currentRevision));
        }
        return null;
    }
}
