package io.kplane.client.lens;

import java.util.List;
import java.util.Map;

/**
 * What one sync of one key did: the triggers coalesced into it since the key's last sync, what the
 * controller saw (a compact summary it supplies), the decision in upstream's words, the writes with
 * the resourceVersion returned or the error, the events emitted, the duration and the requeue.
 */
public record SyncSummary(
        List<Trigger> triggers,
        int triggersDropped,
        Map<String, Object> saw,
        String decision,
        String reason,
        List<Write> writes,
        List<EventNote> events,
        double durationMs,
        Long requeueAfterMs,
        String error) {

    /** An event (or a requeue) that put the key into the queue. type: ADDED|MODIFIED|DELETED|RESYNC|REQUEUE|ADD. */
    public record Trigger(String type, String resource, String key, String rv, java.time.Instant at) {}

    /** A write made by the sync: verb, resource, object key, the resourceVersion returned, or the error. */
    public record Write(String verb, String resource, String key, String rv, String error) {}

    /** A Kubernetes event the sync emitted. */
    public record EventNote(String type, String reason, String message) {}
}
