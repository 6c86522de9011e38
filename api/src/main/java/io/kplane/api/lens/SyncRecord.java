package io.kplane.api.lens;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import java.util.List;

/**
 * lens.kplane.io/v1 SyncRecord: the last syncs one controller made of one object, persisted by the
 * component that made them so that they outlive it (docs/lens.md, "Where sync records live").
 *
 * <p>One object per (target object, controller), in the target's namespace ({@code kube-system} for
 * cluster-scoped targets), named by {@link SyncRecordNames}, owned by the target (ownerReference with
 * its uid) so the garbage collector deletes it with the target. {@code records} holds at most
 * {@link #MAX_RECORDS} entries, oldest first; the writer drops entries older than
 * {@link #MAX_AGE_SECONDS} when it rewrites the object. Like an Event, it has no spec/status: it is a
 * report, not a desired state.
 *
 * @param target     the object the syncs were about
 * @param component  the component process that wrote it (job-controller, kubelet-node-1...)
 * @param controller the controller inside the component (job, job_orphan_pod, pod-worker...)
 * @param records    the last syncs, oldest first
 */
public record SyncRecord(
        String apiVersion,
        String kind,
        ObjectMeta metadata,
        SyncTarget target,
        String component,
        String controller,
        List<SyncRecordEntry> records)
        implements KubeObject {
    public static final String GROUP = "lens.kplane.io";
    public static final String API_VERSION = GROUP + "/v1";
    public static final String KIND = "SyncRecord";
    /** Syncs kept per object: the same bound as a component's in-memory history. */
    public static final int MAX_RECORDS = 10;
    /** Entries older than this (cluster time) are dropped when the object is rewritten: one hour. */
    public static final long MAX_AGE_SECONDS = 3600;
    /** Labels: the target's uid (what {@code kubectl-lite why} selects by) and the controller. */
    public static final String TARGET_UID_LABEL = GROUP + "/target-uid";

    public static final String CONTROLLER_LABEL = GROUP + "/controller";

    public SyncRecord {
        apiVersion = apiVersion == null ? API_VERSION : apiVersion;
        kind = kind == null ? KIND : kind;
        records = records == null ? List.of() : records;
    }

    @Override
    public SyncRecord withMetadata(ObjectMeta metadata) {
        return new SyncRecord(apiVersion, kind, metadata, target, component, controller, records);
    }

    public SyncRecord withRecords(List<SyncRecordEntry> records) {
        return new SyncRecord(apiVersion, kind, metadata, target, component, controller, records);
    }
}
