package io.kplane.client.lens;

import java.time.Duration;

/**
 * The sync record being filled while a worker syncs one key. The controller runner opens it
 * ({@link ControllerLens#beginSync}) and closes it; the controller's sync code adds what it saw, what
 * it decided, the writes it made and the events it emitted through {@link #current()}, which is
 * {@link #NOOP} when the lens is off or outside a sync.
 *
 * <p>Thread-safe: a sync may hand writes to other threads; capture {@code current()} first and report
 * from there.
 */
public interface SyncScope {
    SyncScope NOOP = new SyncScope() {};

    /** The scope of the sync running on this thread, or {@link #NOOP}. */
    static SyncScope current() {
        SyncScope scope = LensRecorder.CURRENT_SYNC.get();
        return scope == null ? NOOP : scope;
    }

    default boolean enabled() {
        return false;
    }

    /** One fact of the compact "saw" summary (e.g. active=1, expectations=satisfied). */
    default SyncScope saw(String name, Object value) {
        return this;
    }

    /** The decision in upstream's words (job: reconciling, tracking, pods_created, pods_deleted...). */
    default SyncScope decided(String decision, String reason) {
        return this;
    }

    /** A write: verb (create/update/patch/delete/updateStatus), resource, key, resourceVersion returned or error. */
    default SyncScope wrote(String verb, String resource, String key, String rv, String error) {
        return this;
    }

    /** A Kubernetes event the sync emitted. */
    default SyncScope event(String type, String reason, String message) {
        return this;
    }

    /** The synced object's uid and resourceVersion, when the controller knows them. */
    default SyncScope object(String uid, String rv) {
        return this;
    }

    /**
     * The key ({@code namespace/name}, or {@code name} for a cluster-scoped object) of the object this sync
     * is about, when the queue's key is something else (the garbage collector's queue holds uids): the
     * record is filed and served under it ({@code /lens/objects/...}), the queue key stays in {@code detail}.
     */
    default SyncScope objectKey(String key) {
        return this;
    }

    /** The resource of the synced object (jobs, cronjobs, pods...). */
    default SyncScope resource(String resource) {
        return this;
    }

    /** Closes the record (runner only): the requeue asked for (null for none) and the error, if any. */
    default void finish(Duration requeueAfter, Throwable error) {}
}
