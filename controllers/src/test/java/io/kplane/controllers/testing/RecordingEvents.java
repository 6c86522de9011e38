package io.kplane.controllers.testing;

import io.kplane.api.meta.KubeObject;
import io.kplane.client.events.EventRecorder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link EventRecorder} that keeps what it is told, so tests can assert exact reasons and messages. */
public final class RecordingEvents implements EventRecorder {
    public record Recorded(String object, String type, String reason, String message) {}

    private final List<Recorded> events = new CopyOnWriteArrayList<>();

    @Override
    public void event(KubeObject involved, String type, String reason, String message) {
        EventRecorder.checkType(type);
        events.add(new Recorded(involved.key(), type, reason, message));
    }

    public List<Recorded> all() {
        return List.copyOf(events);
    }

    public List<Recorded> withReason(String reason) {
        return events.stream().filter(e -> e.reason().equals(reason)).toList();
    }

    /** The events about {@code objectKey} ({@code namespace/name}) with {@code reason}. */
    public List<Recorded> about(String objectKey, String reason) {
        return events.stream()
                .filter(e -> e.object().equals(objectKey) && e.reason().equals(reason))
                .toList();
    }

    /** Each event as {@code <object key> <reason>: <message>}. */
    public List<String> lines() {
        return events.stream()
                .map(e -> e.object() + " " + e.reason() + ": " + e.message())
                .toList();
    }
}
