package io.kplane.client.events;

import io.kplane.api.core.Event;
import io.kplane.api.core.EventSource;
import io.kplane.api.core.ObjectReference;
import io.kplane.api.json.Json;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.patch.PatchType;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.ResourceClient;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventRecorder} every component uses: writes core/v1 Events about objects through the API
 * server, like client-go's broadcaster + recorder pair. The write happens on a background thread (a
 * controller or pod worker never waits for, or fails because of, an event), each event is logged once
 * at INFO when recorded, and an event identical to a recent one (same object, type, reason, message,
 * source) increments the existing Event's {@code count} and {@code lastTimestamp} instead of creating
 * a new one.
 */
public final class ApiEventRecorder implements EventRecorder, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiEventRecorder.class);
    private static final int CACHE_SIZE = 4096;
    private static final int QUEUE_SIZE = 1000;

    private final KubeClient client;
    private final EventSource source;
    private final Clock clock;
    private final ExecutorService writer;
    /** Only touched by the writer thread. */
    private long sequence = System.nanoTime() % 1_000_000;
    /** Recent events by aggregation key, least recently used first. Only touched by the writer thread. */
    private final Map<AggregationKey, Recorded> recent = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<AggregationKey, Recorded> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    /** @param component the reporting component, e.g. {@code job-controller}; {@code host} may be null */
    public ApiEventRecorder(KubeClient client, String component, String host, Clock clock) {
        this.client = client;
        this.source = new EventSource(component, host);
        this.clock = clock;
        this.writer = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE_SIZE),
                DaemonThreads.named("event-recorder-" + component));
    }

    /** Records an event; returns at once (the write is queued). */
    @Override
    public void event(KubeObject involved, String type, String reason, String message) {
        EventRecorder.checkType(type);
        ObjectReference ref = ObjectReference.to(involved);
        Instant now = clock.now().truncatedTo(ChronoUnit.SECONDS);
        log.info("event {} {}/{} {} {}: {}", type, ref.namespace(), ref.name(), ref.kind(), reason, message);
        try {
            writer.execute(() -> write(ref, type, reason, message, now));
        } catch (RejectedExecutionException e) {
            log.warn("event queue full or closed; dropped {} {} for {}/{}", type, reason, ref.namespace(), ref.name());
        }
    }

    private void write(ObjectReference ref, String type, String reason, String message, Instant now) {
        AggregationKey key =
                new AggregationKey(ref.kind(), ref.namespace(), ref.name(), ref.uid(), type, reason, message);
        String namespace = ref.namespace() == null || ref.namespace().isEmpty() ? "default" : ref.namespace();
        ResourceClient<Event> events = client.events().inNamespace(namespace);
        Recorded previous = recent.get(key);
        try {
            if (previous != null) {
                int count = previous.count + 1;
                String patch = Json.write(Map.of("count", count, "lastTimestamp", Json.formatTime(now)));
                try {
                    events.patch(previous.name, PatchType.MERGE, patch);
                    recent.put(key, new Recorded(previous.name, count));
                    return;
                } catch (ApiException e) {
                    if (!e.isNotFound()) {
                        throw e;
                    }
                    // the Event expired or was deleted: start a new one
                }
            }
            // Kubernetes names events <object>.<hex unix nanos>; the sequence keeps same-second events apart.
            String name = ref.name() + "." + Long.toHexString(now.getEpochSecond() * 1_000_000_000L + sequence++);
            Event event = new Event(
                    null,
                    null,
                    ObjectMeta.named(namespace, name),
                    ref,
                    reason,
                    message,
                    source,
                    now,
                    now,
                    1,
                    type,
                    null,
                    null,
                    null,
                    null,
                    source.component(),
                    source.host());
            events.create(event);
            recent.put(key, new Recorded(name, 1));
        } catch (KubeClientException e) {
            log.warn(
                    "could not write event {} {} for {}/{}: {}",
                    type,
                    reason,
                    ref.namespace(),
                    ref.name(),
                    e.getMessage());
        }
    }

    /** Waits until the events recorded so far were written (or {@code timeout} passed). */
    public boolean flush(Duration timeout) throws InterruptedException {
        var done = new java.util.concurrent.CountDownLatch(1);
        try {
            writer.execute(done::countDown);
        } catch (RejectedExecutionException e) {
            return false;
        }
        return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        writer.shutdown();
    }

    private record AggregationKey(
            String kind, String namespace, String name, String uid, String type, String reason, String message) {
        AggregationKey {
            Objects.requireNonNull(reason, "reason");
        }
    }

    private record Recorded(String name, int count) {}
}
