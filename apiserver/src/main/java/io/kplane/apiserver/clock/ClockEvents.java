package io.kplane.apiserver.clock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClockStatus;
import io.kplane.api.clock.GoDuration;
import io.kplane.api.core.EventType;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.storage.ResourceService;
import io.kplane.apiserver.storage.WriteOptions;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster Clock's life in the API server: the {@code cluster} Clock exists from the start (real
 * time), and every change of its spec — by kubectl-lite or a plain {@code kubectl patch} — is recorded
 * as an Event ({@code ClockChanged}) in {@code default}, where Kubernetes puts events of cluster-scoped
 * objects. Each API server sharing a database records it once.
 */
public final class ClockEvents {
    private static final Logger LOG = LoggerFactory.getLogger(ClockEvents.class);
    public static final String REASON = "ClockChanged";

    private final ResourceService service;

    public ClockEvents(ResourceService service) {
        this.service = service;
    }

    /** Creates the {@code cluster} Clock in real time unless it exists. */
    public Future<Void> ensureClock() {
        ObjectNode clock = Json.mapper().createObjectNode();
        clock.putObject("metadata").put("name", Clock.CLUSTER);
        clock.putObject("spec").put("mode", "Real");
        return service.create(ResourceTypes.CLOCKS, null, clock, WriteOptions.defaults())
                .<Void>mapEmpty()
                .recover(t ->
                        t instanceof ApiError e && e.code() == 409 ? Future.succeededFuture() : Future.failedFuture(t));
    }

    /** Called for each stored change of the Clock; records an Event when its spec (generation) moved. */
    public void changed(ObjectNode previous, ObjectNode current) {
        long generation = current.path("metadata").path("generation").asLong();
        if (previous != null && previous.path("metadata").path("generation").asLong() == generation) {
            return;
        }
        try {
            Clock now = Json.mapper().treeToValue(current, Clock.class);
            Clock before = previous == null ? null : Json.mapper().treeToValue(previous, Clock.class);
            if (before == null && "Real".equals(mode(now))) {
                return; // the server creating its real-time clock is no news
            }
            service.create(ResourceTypes.EVENTS, "default", event(now, before), WriteOptions.defaults())
                    .onFailure(t -> LOG.warn("cannot record the clock change: {}", t.toString()));
        } catch (Exception e) {
            LOG.warn("cannot record the clock change: {}", e.toString());
        }
    }

    /** {@code Frozen at 2026-10-25T00:00:00Z (was Real)}. */
    public static String describe(Clock clock) {
        ClockStatus s = clock.status();
        if (s == null) {
            return "Real";
        }
        Instant at = s.clusterAnchor();
        return switch (mode(clock)) {
            case "Frozen" -> "Frozen at " + at;
            case "Offset" -> "Offset " + GoDuration.format(Duration.between(s.wallAnchor(), at));
            case "Rate" -> "Rate x" + s.rate() + " from " + at;
            default -> "Real";
        };
    }

    private static String mode(Clock clock) {
        return clock.status() == null || clock.status().mode() == null
                ? "Real"
                : clock.status().mode();
    }

    private static ObjectNode event(Clock now, Clock before) {
        Instant clusterNow = now.status() == null ? Instant.now() : now.status().clusterAnchor();
        String time = Json.formatTime(clusterNow);
        ObjectNode e = Json.mapper().createObjectNode();
        e.putObject("metadata")
                .put(
                        "name",
                        "cluster." + Long.toHexString(System.nanoTime())
                                + UUID.randomUUID().toString().substring(0, 4))
                .put("namespace", "default");
        ObjectNode ref = e.putObject("involvedObject");
        ref.put("apiVersion", Clock.API_VERSION).put("kind", Clock.KIND).put("name", Clock.CLUSTER);
        if (now.metadata() != null && now.metadata().uid() != null) {
            ref.put("uid", now.metadata().uid());
        }
        if (now.metadata() != null && now.metadata().resourceVersion() != null) {
            ref.put("resourceVersion", now.metadata().resourceVersion());
        }
        e.put("reason", REASON);
        e.put("message", "Clock set to " + describe(now) + (before == null ? "" : " (was " + describe(before) + ")"));
        e.putObject("source").put("component", "kplane-apiserver");
        e.put("firstTimestamp", time).put("lastTimestamp", time).put("count", 1).put("type", EventType.NORMAL);
        e.put("reportingComponent", "kplane-apiserver");
        return e;
    }
}
