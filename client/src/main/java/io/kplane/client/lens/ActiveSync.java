package io.kplane.client.lens;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sync record being filled for one key on one worker; bounded (writes and events capped). */
final class ActiveSync implements SyncScope {
    static final int MAX_WRITES = 32;
    static final int MAX_EVENTS = 16;
    static final int MAX_SAW = 24;

    private final ControllerState controller;
    private final String key;
    private final QueueState.Triggers triggers;
    private final long started = System.nanoTime();
    private final Map<String, Object> saw = new LinkedHashMap<>();
    private final List<SyncSummary.Write> writes = new ArrayList<>();
    private final List<SyncSummary.EventNote> events = new ArrayList<>();
    private int writesDropped;
    private String decision;
    private String reason;
    private String uid;
    private String rv;
    private String resource;
    private String objectKey;
    private boolean finished;

    ActiveSync(ControllerState controller, String key, QueueState.Triggers triggers) {
        this.controller = controller;
        this.key = key;
        this.triggers = triggers;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public synchronized SyncScope saw(String name, Object value) {
        if (saw.size() < MAX_SAW || saw.containsKey(name)) {
            saw.put(name, value);
        }
        return this;
    }

    @Override
    public synchronized SyncScope decided(String decision, String reason) {
        // a sync may decide several things (e.g. pods_created then tracking): keep them all, in order
        this.decision =
                this.decision == null || this.decision.equals(decision) ? decision : this.decision + "," + decision;
        if (reason != null) {
            this.reason = this.reason == null ? reason : this.reason + "; " + reason;
        }
        return this;
    }

    @Override
    public synchronized SyncScope wrote(String verb, String resource, String key, String rv, String error) {
        if (writes.size() < MAX_WRITES) {
            writes.add(new SyncSummary.Write(verb, resource, key, rv, error));
        } else {
            writesDropped++;
        }
        return this;
    }

    @Override
    public synchronized SyncScope event(String type, String reason, String message) {
        if (events.size() < MAX_EVENTS) {
            events.add(new SyncSummary.EventNote(type, reason, message));
        }
        return this;
    }

    @Override
    public synchronized SyncScope object(String uid, String rv) {
        this.uid = uid;
        this.rv = rv;
        return this;
    }

    @Override
    public synchronized SyncScope objectKey(String key) {
        this.objectKey = key;
        return this;
    }

    @Override
    public synchronized SyncScope resource(String resource) {
        this.resource = resource;
        return this;
    }

    @Override
    public void finish(Duration requeueAfter, Throwable error) {
        SyncSummary summary;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            if (writesDropped > 0) {
                saw.put("writesNotShown", writesDropped);
            }
            double ms = (System.nanoTime() - started) / 1e6;
            summary = new SyncSummary(
                    triggers.list(),
                    triggers.dropped(),
                    Map.copyOf(saw).isEmpty() ? Map.of() : new LinkedHashMap<>(saw),
                    decision,
                    reason,
                    List.copyOf(writes),
                    List.copyOf(events),
                    Math.round(ms * 1000) / 1000.0,
                    ControllerState.millis(requeueAfter),
                    error == null ? null : String.valueOf(error.getMessage() == null ? error : error.getMessage()));
        }
        controller.finished(this, summary);
    }

    /** The queue's key. */
    String queueKey() {
        return key;
    }

    /** The object's key the record is filed under: the queue's key unless the controller named another. */
    synchronized String key() {
        return objectKey != null ? objectKey : key;
    }

    synchronized String uid() {
        return uid;
    }

    synchronized String rv() {
        return rv;
    }

    synchronized String resource() {
        return resource;
    }
}
