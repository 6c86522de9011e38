package io.kplane.controllers.runtime;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.client.KubeClient;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event sink controllers get: logs each event as one line and hands it to the client's
 * {@link EventRecorder} (asynchronous, aggregating repeats), so a controller never waits for or
 * fails because of an event. With a null client (unit tests) it only logs.
 */
public class EventWriter implements AutoCloseable {
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    private static final Logger log = LoggerFactory.getLogger(EventWriter.class);

    private final EventRecorder recorder;

    public EventWriter(KubeClient client, Clock clock, String component, String instance) {
        this.recorder = client == null ? null : new EventRecorder(client, component, instance, clock);
    }

    /** Records an event about {@code involved}; never blocks and never throws. */
    public void record(KubeObject involved, String type, String reason, String message) {
        ObjectMeta m = involved.metadata();
        log.info("event {} {} {}/{}: {} {}", type, involved.kind(), m.namespace(), m.name(), reason, message);
        if (recorder != null) {
            recorder.event(involved, type, reason, message);
        }
    }

    @Override
    public void close() {
        if (recorder != null) {
            recorder.close();
        }
    }
}
