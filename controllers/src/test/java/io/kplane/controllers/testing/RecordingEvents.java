package io.kplane.controllers.testing;

import io.kplane.api.meta.KubeObject;
import io.kplane.controllers.cronjob.EventSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link EventSink} that keeps what it is told, so tests can assert exact reasons and messages. */
public final class RecordingEvents implements EventSink {
    public record Recorded(String object, String type, String reason, String message) {}

    private final List<Recorded> events = new CopyOnWriteArrayList<>();

    @Override
    public void event(KubeObject about, String type, String reason, String message) {
        events.add(new Recorded(about.key(), type, reason, message));
    }

    public List<Recorded> all() {
        return List.copyOf(events);
    }

    public List<Recorded> withReason(String reason) {
        return events.stream().filter(e -> e.reason().equals(reason)).toList();
    }
}
