package io.kplane.client.lens;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shapes of docs/lens.md: records and snapshots. */
public final class LensJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int SNAPSHOT_RECORDS = 500;
    private static final int SNAPSHOT_QUEUE_ITEMS = 200;

    private LensJson() {}

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("lens JSON: " + e.getMessage(), e);
        }
    }

    public static Map<String, Object> record(LensRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", r.seq());
        m.put("time", time(r.time()));
        m.put("component", r.component());
        m.put("controller", r.controller());
        m.put("stage", r.stage());
        m.put("type", r.type());
        m.put("resource", r.resource());
        m.put("key", r.key());
        m.put("rv", r.rv());
        if (r.uid() != null) {
            m.put("uid", r.uid());
        }
        m.put("detail", r.detail());
        if (r.sync() != null) {
            m.put("sync", sync(r.sync()));
        }
        return m;
    }

    static Map<String, Object> sync(SyncSummary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> triggers = new ArrayList<>();
        for (SyncSummary.Trigger t : s.triggers()) {
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("type", t.type());
            tm.put("resource", t.resource());
            tm.put("key", t.key());
            tm.put("rv", t.rv());
            tm.put("at", time(t.at()));
            triggers.add(tm);
        }
        m.put("triggers", triggers);
        if (s.triggersDropped() > 0) {
            m.put("triggersDropped", s.triggersDropped());
        }
        m.put("saw", s.saw());
        m.put("decision", s.decision());
        m.put("reason", s.reason());
        List<Map<String, Object>> writes = new ArrayList<>();
        for (SyncSummary.Write w : s.writes()) {
            Map<String, Object> wm = new LinkedHashMap<>();
            wm.put("verb", w.verb());
            wm.put("resource", w.resource());
            wm.put("key", w.key());
            wm.put("rv", w.rv());
            wm.put("error", w.error());
            writes.add(wm);
        }
        m.put("writes", writes);
        List<Map<String, Object>> events = new ArrayList<>();
        for (SyncSummary.EventNote e : s.events()) {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("type", e.type());
            em.put("reason", e.reason());
            em.put("message", e.message());
            events.add(em);
        }
        m.put("events", events);
        m.put("durationMs", s.durationMs());
        m.put("requeueAfterMs", s.requeueAfterMs());
        m.put("error", s.error());
        return m;
    }

    /** {@code GET /lens/snapshot}: counters and queue items per controller, and the last records. */
    public static Map<String, Object> snapshot(LensRecorder lens) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("component", lens.component());
        m.put("instance", lens.instance());
        m.put("now", time(lens.clock().now()));
        m.put("seq", lens.seq());
        m.put("sampling", lens.sampling());
        m.put("droppedRecords", lens.droppedTotal());
        m.put("persistDroppedRecords", lens.persistDroppedTotal());
        Map<String, Integer> gauges = lens.gauges();
        List<Map<String, Object>> controllers = new ArrayList<>();
        for (ControllerState c : lens.controllers()) {
            QueueState q = c.queue();
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("name", c.name());
            cm.put("queue", c.hasQueue() ? q.name() : null);
            cm.put("paused", c.paused());
            Map<String, Object> counters = new LinkedHashMap<>();
            counters.put("depth", q.depth());
            counters.put("delayed", q.delayed());
            counters.put("adds", q.adds());
            counters.put("retries", q.retries());
            counters.put("inFlight", q.inFlight());
            counters.put("syncs", c.syncs());
            counters.put("syncErrors", c.syncErrors());
            counters.put("syncP50Ms", c.syncQuantileMs(0.5));
            counters.put("syncP99Ms", c.syncQuantileMs(0.99));
            counters.put("pendingExpectations", gauges.getOrDefault("pendingExpectations." + c.name(), 0));
            int fifo = 0;
            Map<String, Integer> cache = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> g : gauges.entrySet()) {
                if (g.getKey().startsWith("fifoDepth.")) {
                    fifo += g.getValue();
                } else if (g.getKey().startsWith("cacheObjects.")) {
                    cache.put(g.getKey().substring("cacheObjects.".length()), g.getValue());
                }
            }
            counters.put("fifoDepth", fifo);
            counters.put("cacheObjects", cache);
            cm.put("counters", counters);
            cm.put("workers", c.workers());
            cm.put("queueItems", q.items(SNAPSHOT_QUEUE_ITEMS));
            controllers.add(cm);
        }
        m.put("controllers", controllers);
        m.put("gauges", gauges);
        List<Map<String, Object>> records = new ArrayList<>();
        for (LensRecord r : lens.since(0, SNAPSHOT_RECORDS)) {
            records.add(record(r));
        }
        m.put("records", records);
        return m;
    }

    static String time(Instant t) {
        return t == null ? null : t.toString();
    }
}
