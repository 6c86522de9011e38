package io.kplane.kubectl.clock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClockSpec;
import io.kplane.api.json.Json;
import io.kplane.kubectl.Api;
import io.kplane.kubectl.CliException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * {@code clock advance DURATION --step D}: moves the cluster clock one step at a time and, after each,
 * waits until the step is over everywhere before the next: every process following the clock has
 * acknowledged the step's generation and is idle (its ack Lease, written by the client library's
 * ClockAckPublisher: no queued or running work, no due timer, no pod mid-start), and nothing has been
 * written to the store for {@link #SETTLE} (so work in flight between processes is not missed). A
 * process that does not answer within the ack timeout is named once and no longer waited for (a
 * killed kubelet must not stop the clock). Prints the Events each step caused.
 */
final class ClockStepper {
    static final String STEP_ANNOTATION = "clock.kplane.io/step";
    static final String ACK_LABEL = "kplane.io/clock-ack";
    static final String ACK_GENERATION = "clock.kplane.io/observed-generation";
    static final String ACK_IDLE = "clock.kplane.io/idle";
    static final Duration SETTLE = Duration.ofMillis(30);
    static final Duration FIRST_SETTLE = Duration.ofMillis(400);
    private static final Duration POLL = Duration.ofMillis(5);

    private final ClockApi clocks;
    private final PrintWriter out;
    private final Duration ackTimeout;
    private final Set<String> unresponsive = new HashSet<>();
    private final String token = UUID.randomUUID().toString().substring(0, 8);

    ClockStepper(ClockApi clocks, PrintWriter out, Duration ackTimeout) {
        this.clocks = clocks;
        this.out = out;
        this.ackTimeout = ackTimeout;
    }

    void advance(Duration total, Duration step) throws InterruptedException {
        if (total.isNegative() || total.isZero()) {
            throw new CliException("error: the duration to advance must be positive, not " + total);
        }
        if (step == null || step.compareTo(total) > 0) {
            step = total;
        }
        if (step.isNegative() || step.isZero()) {
            throw new CliException("error: --step must be positive, not " + step);
        }
        long steps = (total.toNanos() + step.toNanos() - 1) / step.toNanos();
        Clock clock = clocks.get();
        Instant start = clock.clusterTime().at(Instant.now());
        Instant target = start.plus(total);
        long revision = storeRevision();
        EventTail events = new EventTail(clocks.api(), revision);
        try {
            for (long i = 1; i <= steps; i++) {
                Instant to = i == steps ? target : start.plus(step.multipliedBy(i));
                clock = clocks.patch(stepPatch(clock, to, token + "-" + i));
                long generation = clock.metadata().generation();
                // the first step also waits for processes that have never answered a step to say they exist
                long after = awaitStepDone(generation, token + "-" + i, i == 1 ? FIRST_SETTLE : SETTLE);
                out.printf(
                        "%s  step %d/%d  %s%n",
                        Json.formatTime(clock.clusterTime().at(Instant.now())), i, steps, mode(clock));
                printEvents(events, revision, after);
                out.flush();
                revision = after;
            }
        } finally {
            events.close();
            ObjectNode clear = Json.mapper().createObjectNode();
            clear.putObject("metadata").putObject("annotations").putNull(STEP_ANNOTATION);
            clocks.patch(clear);
        }
    }

    /** The spec that puts the cluster time at {@code to}, keeping the mode (real time becomes Offset). */
    static ObjectNode stepPatch(Clock clock, Instant to, String stepToken) {
        String mode = clock.status() == null || clock.status().mode() == null
                ? ClockSpec.REAL
                : clock.status().mode();
        Long rate = ClockSpec.RATE.equals(mode) ? clock.status().rate() : null;
        if (ClockSpec.REAL.equals(mode)) {
            mode = ClockSpec.OFFSET;
        }
        ObjectNode patch = ClockApi.spec(mode, to.toString(), null, rate);
        ((ObjectNode) patch.putObject("metadata")).putObject("annotations").put(STEP_ANNOTATION, stepToken);
        return patch;
    }

    static String mode(Clock clock) {
        var s = clock.status();
        if (s == null) {
            return "Real";
        }
        return s.mode() + (s.rate() != null && s.rate() > 1 ? " x" + s.rate() : "");
    }

    /** Waits until every answering process acked {@code generation} idle and the store settled; returns its revision. */
    private long awaitStepDone(long generation, String stepToken, Duration settle) throws InterruptedException {
        long began = System.nanoTime();
        long settledRevision = -1;
        long settledSince = 0;
        while (true) {
            JsonNode list = clocks.api()
                    .get(
                            "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                            Api.query("labelSelector", ACK_LABEL + "=true"),
                            Api.JSON);
            long revision = list.path("metadata").path("resourceVersion").asLong();
            boolean waitedLong = System.nanoTime() - began > ackTimeout.toNanos();
            List<String> pending = new ArrayList<>();
            for (JsonNode lease : list.path("items")) {
                String name = lease.path("metadata").path("name").asText();
                if (unresponsive.contains(name)) {
                    continue;
                }
                JsonNode a = lease.path("metadata").path("annotations");
                boolean done = stepToken.equals(a.path(STEP_ANNOTATION).asText())
                        && a.path(ACK_GENERATION).asLong(-1) >= generation
                        && "true".equals(a.path(ACK_IDLE).asText());
                if (!done) {
                    pending.add(name);
                }
            }
            if (!pending.isEmpty() && waitedLong) {
                for (String name : pending) {
                    out.printf(
                            "warning: %s did not finish the step within %ds; no longer waiting for it%n",
                            name, ackTimeout.toSeconds());
                    unresponsive.add(name);
                }
                pending.clear();
            }
            if (pending.isEmpty()) {
                long now = System.nanoTime();
                if (revision != settledRevision) {
                    settledRevision = revision;
                    settledSince = now;
                } else if (now - settledSince >= settle.toNanos()) {
                    return revision;
                }
            } else {
                settledRevision = -1;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private long storeRevision() {
        JsonNode list = clocks.api().get("/api/v1/namespaces", Api.query("limit", "1"), Api.JSON);
        return list.path("metadata").path("resourceVersion").asLong();
    }

    /** The Events written in (from, to], like {@code kubectl get events}: TYPE REASON OBJECT MESSAGE. */
    private void printEvents(EventTail events, long from, long to) {
        for (JsonNode e : events.between(from, to)) {
            if ("ClockChanged".equals(e.path("reason").asText())) {
                continue;
            }
            JsonNode ref = e.path("involvedObject");
            out.printf(
                    "  %-7s  %-20s  %s/%s  %s%n",
                    e.path("type").asText(),
                    e.path("reason").asText(),
                    ref.path("kind").asText().toLowerCase(Locale.ROOT),
                    ref.path("name").asText(),
                    e.path("message").asText());
        }
    }
}
