package io.kplane.api.lens;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One persisted sync: the lens's sync record (docs/lens.md, "Record") in a bounded form. Lists are
 * truncated by the writer ({@code triggersDropped}, {@code writesDropped}, {@code eventsDropped} count
 * what was cut). A kubelet pod-worker decision is stored in the same shape: {@code decision} is the
 * worker's record type ({@code Started}, {@code BackOff}, {@code status-written}...), {@code saw} its
 * details, {@code writes} the status write with the resourceVersion returned.
 *
 * @param time      cluster time when the sync ended
 * @param seq       the record's sequence number in its component's lens (orders records of one process)
 * @param rv        the synced object's resourceVersion as the controller saw it
 * @param repeated  how many earlier entries just like this one (same decision and "saw", no triggers or
 *                  events, one write) it replaced: a kubelet rewriting the same status is one line
 */
public record SyncRecordEntry(
        Instant time,
        Long seq,
        String component,
        String controller,
        String rv,
        List<Trigger> triggers,
        Integer triggersDropped,
        Map<String, Object> saw,
        String decision,
        String reason,
        List<Write> writes,
        Integer writesDropped,
        List<EventNote> events,
        Integer eventsDropped,
        Double durationMs,
        Long requeueAfterMs,
        String error,
        Integer repeated) {

    /** The same entry, standing also for {@code n} earlier ones just like it. */
    public SyncRecordEntry withRepeated(Integer n) {
        return new SyncRecordEntry(
                time,
                seq,
                component,
                controller,
                rv,
                triggers,
                triggersDropped,
                saw,
                decision,
                reason,
                writes,
                writesDropped,
                events,
                eventsDropped,
                durationMs,
                requeueAfterMs,
                error,
                n);
    }

    /** An informer event (or a requeue/plain add) that put the key into the queue. */
    public record Trigger(String type, String resource, String key, String rv, Instant at) {}

    /** A write the sync made: the resourceVersion returned, or the error. */
    public record Write(String verb, String resource, String key, String rv, String error) {}

    /** A Kubernetes event the sync emitted. */
    public record EventNote(String type, String reason, String message) {}
}
