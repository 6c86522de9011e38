package io.kplane.launcher.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * When a watching client first saw each step of the benchmark's pods: the pod itself, its binding
 * ({@code spec.nodeName}) and the kubelet's first status write (a container status). A watch event
 * is stamped when this process reads it, so each step includes the watch's delivery time; the
 * split between the scheduler and the kubelet is what it is for.
 */
final class PodTimeline implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Epoch nanoseconds at which one pod's steps were first seen (0 = not seen). */
    static final class Steps {
        volatile long seen;
        volatile long bound;
        volatile long firstContainerStatus;
        volatile long succeeded;
    }

    private final Map<String, Steps> steps = new ConcurrentHashMap<>();
    private final Thread reader;
    private volatile Stream<String> lines;

    /** Pods are keyed by the value of {@code keyLabel}, or by name when it is null. */
    private final String keyLabel;

    PodTimeline(HttpClient http, String server, String namespace, String labelSelector, String keyLabel) {
        this.keyLabel = keyLabel;
        HttpRequest req = HttpRequest.newBuilder(URI.create(server + "/api/v1/namespaces/" + namespace
                        + "/pods?watch=true&labelSelector=" + labelSelector.replace("=", "%3D")))
                .GET()
                .build();
        reader = new Thread(
                () -> {
                    try {
                        lines = http.send(req, HttpResponse.BodyHandlers.ofLines())
                                .body();
                        lines.forEach(this::onLine);
                    } catch (Exception e) {
                        // the benchmark's own figures do not depend on the timeline
                    }
                },
                "pod-timeline");
        reader.setDaemon(true);
        reader.start();
    }

    private void onLine(String line) {
        long now = epochNanos(Instant.now());
        try {
            JsonNode pod = JSON.readTree(line).path("object");
            JsonNode meta = pod.path("metadata");
            String key = keyLabel == null
                    ? meta.path("name").asText()
                    : meta.path("labels").path(keyLabel).asText();
            Steps s = steps.computeIfAbsent(key, k -> new Steps());
            if (s.seen == 0) {
                s.seen = now;
            }
            if (s.bound == 0 && !pod.path("spec").path("nodeName").asText().isEmpty()) {
                s.bound = now;
            }
            if (s.firstContainerStatus == 0
                    && pod.path("status").path("containerStatuses").size() > 0) {
                s.firstContainerStatus = now;
            }
            if (s.succeeded == 0
                    && "Succeeded".equals(pod.path("status").path("phase").asText())) {
                s.succeeded = now;
            }
        } catch (Exception e) {
            // not an event line
        }
    }

    Steps of(String pod) {
        return steps.getOrDefault(pod, new Steps());
    }

    static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public void close() {
        Stream<String> l = lines;
        if (l != null) {
            l.close();
        }
        reader.interrupt();
    }
}
