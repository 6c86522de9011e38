package io.kplane.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;

/**
 * The cluster clock ({@code clocks.kplane.io/v1} {@code Clock} "cluster", docs/clock.md): every
 * component follows it, so moving it fires CronJobs, expires back-offs and TTLs without waiting.
 * Each method is one merge patch of the Clock's spec, the same patches {@code kubectl patch clock
 * cluster} and {@code kubectl-lite clock} send; the returned object is the stored Clock.
 *
 * <p>Why not kubectl-lite's clock classes: they sit on kplane's own API model and CLI plumbing,
 * which this dependency-light module keeps off the user's class path. {@link #advance} is a single
 * jump; kubectl-lite's {@code clock advance --step} (which waits for every component to acknowledge
 * each step) remains the tool for stepping through many schedule points.
 */
public final class ClusterClock {
    static final String PATH = "/apis/kplane.io/v1/clocks/cluster";

    private final KubeHttp http;

    ClusterClock(KubeHttp http) {
        this.http = http;
    }

    /**
     * Sets cluster time to {@code time} and lets it run on at wall-clock speed from there (mode
     * {@code Offset}): the way to put a schedule a few seconds ahead and watch it fire.
     */
    public JsonNode set(Instant time) {
        return patch("Offset", time.toString(), null);
    }

    /**
     * Stops cluster time where it is. Every timer in the cluster stops with it — back-offs, a Job's
     * pod-update batching, requeues — so freeze to look at a state, and {@link #advance} or go back to
     * a running clock to let the controllers finish.
     */
    public JsonNode freeze() {
        return patch("Frozen", null, null);
    }

    /** Stops cluster time at {@code time}. */
    public JsonNode freezeAt(Instant time) {
        return patch("Frozen", time.toString(), null);
    }

    /** Moves cluster time forward by {@code step}, keeping the mode (real time becomes Offset). */
    public JsonNode advance(Duration step) {
        if (step.isNegative() || step.isZero()) {
            throw new IllegalArgumentException("the step must be positive, not " + step);
        }
        JsonNode status = clock().path("status");
        String mode = status.path("mode").asText("Real");
        Long rate = "Rate".equals(mode) ? status.path("rate").asLong() : null;
        return patch("Real".equals(mode) ? "Offset" : mode, now().plus(step).toString(), rate);
    }

    /** Cluster time runs {@code clusterSecondsPerWallSecond} times faster than wall time. */
    public JsonNode rate(long clusterSecondsPerWallSecond) {
        return patch("Rate", null, clusterSecondsPerWallSecond);
    }

    /** Back to wall time. */
    public JsonNode real() {
        return patch("Real", null, null);
    }

    /** The cluster time now: {@code clusterAnchor + (wall - wallAnchor) x rate} from the Clock's status. */
    public Instant now() {
        JsonNode status = clock().path("status");
        if (!status.hasNonNull("clusterAnchor")) {
            return Instant.now();
        }
        Instant wallAnchor = Instant.parse(status.path("wallAnchor").asText());
        Instant clusterAnchor = Instant.parse(status.path("clusterAnchor").asText());
        long rate = status.path("rate").asLong(1);
        return clusterAnchor.plus(Duration.between(wallAnchor, Instant.now()).multipliedBy(rate));
    }

    /** The stored Clock object. */
    public JsonNode clock() {
        JsonNode clock = http.get(PATH);
        if (clock == null) {
            throw new IllegalStateException("the server has no cluster clock (clocks.kplane.io \"cluster\" not found)");
        }
        return clock;
    }

    private JsonNode patch(String mode, String time, Long rate) {
        ObjectNode patch = KubeHttp.JSON.createObjectNode();
        ObjectNode spec = patch.putObject("spec");
        spec.put("mode", mode);
        spec.putNull("offset");
        if (time == null) {
            spec.putNull("time");
        } else {
            spec.put("time", time);
        }
        if (rate == null) {
            spec.putNull("rate");
        } else {
            spec.put("rate", rate);
        }
        return http.mergePatch(PATH, patch.toString());
    }
}
