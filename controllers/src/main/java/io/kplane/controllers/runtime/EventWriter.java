package io.kplane.controllers.runtime;

import io.kplane.api.core.EventType;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.client.KubeClient;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event sink controllers get: hands each event to the client's {@link EventRecorder}
 * (asynchronous, aggregating repeats; it logs each event once, at INFO), so a controller never waits
 * for or fails because of an event. With a null client (unit tests) it only logs.
 */
public class EventWriter implements AutoCloseable {
    public static final String NORMAL = EventType.NORMAL;
    public static final String WARNING = EventType.WARNING;
    private static final Logger log = LoggerFactory.getLogger(EventWriter.class);

    private final EventRecorder recorder;

    public EventWriter(KubeClient client, Clock clock, String component, String instance) {
        this.recorder = client == null ? null : new EventRecorder(client, component, instance, clock);
    }

    /** Records an event about {@code involved}; never blocks and never throws. */
    public void record(KubeObject involved, String type, String reason, String message) {
        if (recorder != null) {
            recorder.event(involved, type, reason, message); // logs the event (once, at INFO)
        } else {
            ObjectMeta m = involved.metadata();
            log.info("event {} {} {}/{}: {} {}", type, involved.kind(), m.namespace(), m.name(), reason, message);
        }
    }

    @Override
    public void close() {
        if (recorder != null) {
            recorder.close();
        }
    }
}
