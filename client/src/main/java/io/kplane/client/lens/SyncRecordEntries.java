package io.kplane.client.lens;

import io.kplane.api.lens.SyncRecordEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lens record as a persisted {@link SyncRecordEntry}, cut to a bounded size: at most
 * {@link #MAX_TRIGGERS} triggers (the first ones and the latest, the rest counted), {@link #MAX_WRITES}
 * writes, {@link #MAX_EVENTS} events, {@link #MAX_SAW} "saw" facts, every text at most
 * {@link #MAX_TEXT} characters. A kubelet pod-worker record (stage {@code kubelet}) becomes an entry
 * whose decision is its type ({@code Started}, {@code BackOff}, {@code status-written}...), whose
 * "saw" is its detail and whose write is the status write with the resourceVersion returned.
 */
public final class SyncRecordEntries {
    static final int MAX_TRIGGERS = 5;
    static final int MAX_WRITES = 8;
    static final int MAX_EVENTS = 5;
    static final int MAX_SAW = 16;
    static final int MAX_TEXT = 256;

    private SyncRecordEntries() {}

    /** True for the records worth persisting: sync records and kubelet pod-worker decisions. */
    public static boolean persistable(LensRecord r) {
        return r.key() != null && r.resource() != null && (r.sync() != null || "kubelet".equals(r.stage()));
    }

    public static SyncRecordEntry of(LensRecord r) {
        return r.sync() != null ? ofSync(r, r.sync()) : ofKubelet(r);
    }

    private static SyncRecordEntry ofSync(LensRecord r, SyncSummary s) {
        List<SyncSummary.Trigger> all = s.triggers();
        List<SyncRecordEntry.Trigger> triggers = new ArrayList<>();
        int keep = Math.min(all.size(), MAX_TRIGGERS);
        for (int i = 0; i < keep; i++) {
            // the first MAX_TRIGGERS-1 and the latest: what started the wait and what ended it
            SyncSummary.Trigger t = i == keep - 1 ? all.get(all.size() - 1) : all.get(i);
            triggers.add(new SyncRecordEntry.Trigger(t.type(), t.resource(), t.key(), t.rv(), t.at()));
        }
        int triggersDropped = s.triggersDropped() + all.size() - keep;
        List<SyncRecordEntry.Write> writes = new ArrayList<>();
        for (SyncSummary.Write w : s.writes()) {
            if (writes.size() == MAX_WRITES) {
                break;
            }
            writes.add(new SyncRecordEntry.Write(w.verb(), w.resource(), w.key(), w.rv(), cut(w.error())));
        }
        int writesNotShown = s.saw().get("writesNotShown") instanceof Number n ? n.intValue() : 0;
        int writesDropped = s.writes().size() - writes.size() + writesNotShown;
        List<SyncRecordEntry.EventNote> events = new ArrayList<>();
        for (SyncSummary.EventNote e : s.events()) {
            if (events.size() == MAX_EVENTS) {
                break;
            }
            events.add(new SyncRecordEntry.EventNote(e.type(), e.reason(), cut(e.message())));
        }
        int eventsDropped = s.events().size() - events.size();
        return new SyncRecordEntry(
                r.time(),
                r.seq(),
                r.component(),
                r.controller(),
                r.rv(),
                triggers,
                triggersDropped == 0 ? null : triggersDropped,
                saw(s.saw()),
                cut(s.decision()),
                cut(s.reason()),
                writes,
                writesDropped == 0 ? null : writesDropped,
                events,
                eventsDropped == 0 ? null : eventsDropped,
                s.durationMs(),
                s.requeueAfterMs(),
                cut(s.error()),
                null);
    }

    private static SyncRecordEntry ofKubelet(LensRecord r) {
        Map<String, Object> detail = r.detail() == null ? Map.of() : r.detail();
        Map<String, Object> saw = new LinkedHashMap<>(detail);
        Object message = saw.remove("message");
        Object error = saw.remove("error");
        saw.remove("eventType");
        List<SyncRecordEntry.Write> writes = new ArrayList<>();
        if ("status-written".equals(r.type()) || "status-write-failed".equals(r.type())) {
            writes.add(new SyncRecordEntry.Write("updateStatus", "pods", r.key(), r.rv(), cut(str(error))));
        }
        List<SyncRecordEntry.EventNote> events = new ArrayList<>();
        if (detail.get("eventType") != null) {
            events.add(new SyncRecordEntry.EventNote(str(detail.get("eventType")), r.type(), cut(str(message))));
        }
        return new SyncRecordEntry(
                r.time(),
                r.seq(),
                r.component(),
                r.controller(),
                r.rv(),
                List.of(),
                null,
                saw(saw),
                r.type(),
                cut(str(message)),
                writes,
                null,
                events,
                null,
                null,
                null,
                cut(str(error)),
                null);
    }

    private static Map<String, Object> saw(Map<String, Object> saw) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : saw.entrySet()) {
            if (out.size() == MAX_SAW) {
                break;
            }
            Object v = e.getValue();
            if ("writesNotShown".equals(e.getKey())) {
                continue;
            }
            out.put(e.getKey(), v == null || v instanceof Number || v instanceof Boolean ? v : cut(String.valueOf(v)));
        }
        return out;
    }

    private static String str(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    static String cut(String s) {
        return s == null || s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT - 3) + "...";
    }
}
