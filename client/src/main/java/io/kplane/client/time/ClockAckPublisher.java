package io.kplane.client.time;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.coordination.Lease;
import io.kplane.api.json.Json;
import io.kplane.api.json.MicroTimeSerializer;
import io.kplane.api.patch.PatchType;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells {@code kubectl-lite clock advance --step} when this process has finished a step: a Lease
 * {@code kube-system/clock-ack-<identity>} (label {@value #LABEL}) whose annotations say which clock
 * generation and step it has applied and whether it is idle (no queued or running work, no due timer,
 * no pod mid-start). It is written only while a step is being waited on (the Clock carries
 * {@link ClusterClockFollower#STEP_ANNOTATION}) and only when that answer changes; idle is written after
 * {@link #SETTLE} of continuous idleness, so work handed between this process's own components in that
 * time is not mistaken for the end; "busy" is written only after "idle" was (work that came back).
 * Real-time running writes nothing.
 */
final class ClockAckPublisher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClockAckPublisher.class);
    public static final String NAMESPACE = "kube-system";
    public static final String LABEL = "kplane.io/clock-ack";
    public static final String GENERATION = "clock.kplane.io/observed-generation";
    public static final String IDLE = "clock.kplane.io/idle";
    static final Duration SETTLE = Duration.ofMillis(10);

    private final KubeClient client;
    private final String identity;
    private final String leaseName;
    private final ClusterClockFollower follower;
    private final Object signal = new Object();
    private final Runnable poke = this::poke;
    private volatile boolean closed;
    private boolean dirty;
    private Thread thread;
    private String written;
    private boolean created;

    ClockAckPublisher(KubeClient client, String identity, ClusterClockFollower follower) {
        this.client = client;
        this.identity = identity;
        this.leaseName = leaseName(identity);
        this.follower = follower;
    }

    static String leaseName(String identity) {
        String n = "clock-ack-" + identity.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        n = n.length() > 253 ? n.substring(0, 253) : n;
        return n.replaceAll("[.-]+$", "");
    }

    void start() {
        ActivityTracker.addListener(poke);
        thread = DaemonThreads.newThread("clock-ack", this::loop);
        thread.start();
    }

    void poke() {
        synchronized (signal) {
            dirty = true;
            signal.notifyAll();
        }
    }

    private void loop() {
        while (!closed) {
            try {
                synchronized (signal) {
                    while (!dirty && !closed) {
                        // a due timer or a clock-woken loop may end without a flip: look again now and then
                        signal.wait(follower.step() == null ? 1000 : 5);
                        if (follower.step() != null) {
                            break;
                        }
                    }
                    dirty = false;
                }
                publishIfChanged();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.debug("clock ack not written: {}", e.toString());
            }
        }
    }

    private void publishIfChanged() throws InterruptedException {
        String step = follower.step();
        if (step == null) {
            return;
        }
        long generation = follower.generation();
        boolean idle = idleNow();
        if (idle) {
            long flips = ActivityTracker.flips();
            Thread.sleep(SETTLE.toMillis());
            idle = idleNow() && flips == ActivityTracker.flips() && generation == follower.generation();
        }
        String answer = generation + "/" + step + "/" + idle;
        if (answer.equals(written)) {
            return;
        }
        if (!idle && (written == null || !written.startsWith(generation + "/" + step + "/"))) {
            return; // "busy" only needs saying once "idle" was said for this step
        }
        write(generation, step, idle);
        written = answer;
    }

    private boolean idleNow() {
        return ActivityTracker.isIdle() && follower.clock().dueTimers() == 0;
    }

    private void write(long generation, String step, boolean idle) {
        ObjectNode patch = Json.mapper().createObjectNode();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("name", leaseName).put("namespace", NAMESPACE);
        meta.putObject("labels").put(LABEL, "true");
        meta.putObject("annotations")
                .put(GENERATION, String.valueOf(generation))
                .put(ClusterClockFollower.STEP_ANNOTATION, step)
                .put(IDLE, String.valueOf(idle));
        ObjectNode spec = patch.putObject("spec");
        spec.put("holderIdentity", identity).put("renewTime", MicroTimeSerializer.format(Instant.now()));
        var leases = client.leases().inNamespace(NAMESPACE);
        if (!created) {
            try {
                leases.create(Json.mapper().convertValue(patch, Lease.class));
                created = true;
                return;
            } catch (ApiException e) {
                if (e.code() != 409) {
                    throw e;
                }
                created = true;
            }
        }
        leases.patch(leaseName, PatchType.MERGE, patch.toString());
    }

    @Override
    public void close() {
        closed = true;
        ActivityTracker.removeListener(poke);
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
        if (Objects.equals(Boolean.TRUE, created)) {
            try {
                client.leases().inNamespace(NAMESPACE).delete(leaseName);
            } catch (RuntimeException e) {
                log.debug("clock ack lease not removed: {}", e.toString());
            }
        }
    }
}
