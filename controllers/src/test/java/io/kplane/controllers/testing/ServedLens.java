package io.kplane.controllers.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.time.Clock;
import io.kplane.controllers.runtime.HealthServer;
import io.kplane.controllers.runtime.LensMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A component's lens as its process serves it: a {@link LensRecorder} with its metrics, on a real health
 * server; the tests read {@code /lens/objects/...}, {@code /lens/snapshot} and {@code /metrics} over HTTP.
 */
public final class ServedLens implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    public final LensRecorder lens;
    public final PrometheusMeterRegistry registry;
    private final HealthServer server;

    private ServedLens(String component, Clock clock) throws java.io.IOException {
        this.registry = HealthServer.newRegistry();
        this.lens = new LensRecorder(component, "test", clock, 65_536, 1_000_000);
        LensMetrics.bind(lens, registry);
        this.server = HealthServer.start("127.0.0.1", 0, registry, () -> true);
        server.serveLens(lens);
    }

    public static ServedLens start(String component) throws java.io.IOException {
        return new ServedLens(component, Clock.system());
    }

    /** Records stamped with {@code clock}, as a process stamps them with the cluster clock its controllers use. */
    public static ServedLens start(String component, Clock clock) throws java.io.IOException {
        return new ServedLens(component, clock);
    }

    public String get(String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** The sync records of one object key, as {@code GET /lens/objects/{key}} serves them. */
    public List<JsonNode> syncsOf(String key) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(get("/lens/objects/" + key)).path("syncs").forEach(out::add);
        return out;
    }

    /** The sync records of {@code key} whose decision contains {@code decision}. */
    public List<JsonNode> syncsOf(String key, String decision) throws Exception {
        return syncsOf(key).stream()
                .filter(r -> r.path("sync").path("decision").asText().contains(decision))
                .toList();
    }

    public JsonNode snapshot() throws Exception {
        return JSON.readTree(get("/lens/snapshot"));
    }

    public String metrics() throws Exception {
        return get("/metrics");
    }

    @Override
    public void close() {
        server.close();
    }
}
