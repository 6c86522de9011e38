package io.kplane.controllers.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The /lens/* endpoints on a real health server, over real HTTP. */
class LensEndpointsTest {
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private HealthServer server;
    private LensRecorder lens;
    private String base;

    @BeforeEach
    void start() throws Exception {
        var registry = HealthServer.newRegistry();
        server = HealthServer.start("127.0.0.1", 0, registry, () -> true);
        lens = new LensRecorder("job-controller", "host/1", Clock.system());
        LensMetrics.bind(lens, registry);
        server.serveLens(lens);
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void snapshotShowsControllersCountersQueueItemsAndRecords() throws Exception {
        RateLimitingQueue<String> queue = RateLimitingQueue.create(Clock.system(), lens, "job");
        lens.controller("job", "job");
        queue.add("default/pi");
        queue.addAfter("default/later", Duration.ofHours(1));
        HttpResponse<String> response = send("GET", "/lens/snapshot");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode snapshot = json.readTree(response.body());
        assertThat(snapshot.path("component").asText()).isEqualTo("job-controller");
        assertThat(snapshot.path("seq").asLong()).isEqualTo(2);
        assertThat(snapshot.path("sampling").asBoolean()).isFalse();
        JsonNode job = snapshot.path("controllers").get(0);
        assertThat(job.path("name").asText()).isEqualTo("job");
        assertThat(job.path("queue").asText()).isEqualTo("job");
        assertThat(job.path("counters").path("depth").asInt()).isEqualTo(1);
        assertThat(job.path("counters").path("adds").asInt()).isEqualTo(1);
        assertThat(job.path("queueItems").get(0).path("key").asText()).isEqualTo("default/pi");
        assertThat(job.path("queueItems").get(0).path("state").asText()).isEqualTo("waiting");
        assertThat(job.path("queueItems").get(1).path("state").asText()).isEqualTo("delayed");
        assertThat(job.path("queueItems").get(1).path("dueAt").isTextual()).isTrue();
        assertThat(snapshot.path("records"))
                .extracting(r -> r.path("type").asText())
                .containsExactly("add", "add-after");
        queue.shutDown();
    }

    @Test
    void streamSendsRecordsAfterSinceThenLiveOnes() throws Exception {
        lens.record(LensRecord.of("job", "queue", "add", null, "default/a", null, null));
        lens.record(LensRecord.of("job", "queue", "add", null, "default/b", null, null));
        HttpResponse<InputStream> response = http.send(
                HttpRequest.newBuilder(URI.create(base + "/lens/stream?since=1"))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            List<String> ids = new ArrayList<>();
            List<JsonNode> data = new ArrayList<>();
            boolean live = false;
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("id: ")) {
                    ids.add(line.substring(4));
                } else if (line.startsWith("data: ")) {
                    data.add(json.readTree(line.substring(6)));
                    if (!live) {
                        live = true;
                        lens.record(LensRecord.of("job", "queue", "get", null, "default/b", null, null));
                    }
                    if (data.size() == 2) {
                        break;
                    }
                }
            }
            assertThat(ids).containsExactly("2", "3");
            assertThat(data.get(0).path("key").asText()).isEqualTo("default/b");
            assertThat(data.get(1).path("type").asText()).isEqualTo("get");
        }
    }

    @Test
    void pauseStepResumeAndClearErrors() throws Exception {
        lens.controller("job", "job");
        HttpResponse<String> paused = send("POST", "/lens/controllers/job/pause");
        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(json.readTree(paused.body()).path("paused").asBoolean()).isTrue();
        JsonNode stepped =
                json.readTree(send("POST", "/lens/controllers/job/step").body());
        assertThat(stepped.path("stepsPending").asInt()).isEqualTo(1);
        JsonNode resumed =
                json.readTree(send("POST", "/lens/controllers/job/resume").body());
        assertThat(resumed.path("paused").asBoolean()).isFalse();
        assertThat(resumed.path("stepsPending").asInt()).isZero();

        HttpResponse<String> unknown = send("POST", "/lens/controllers/nope/pause");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json.readTree(unknown.body()).path("reason").asText()).isEqualTo("NotFound");
        assertThat(send("GET", "/lens/controllers/job/pause").statusCode()).isEqualTo(405);
        assertThat(send("GET", "/lens/stream?since=abc").statusCode()).isEqualTo(400);
        assertThat(send("POST", "/lens/controllers/job/explode").statusCode()).isEqualTo(404);
    }

    @Test
    void metricsCarryUpstreamWorkqueueNames() throws Exception {
        RateLimitingQueue<String> queue = RateLimitingQueue.create(Clock.system(), lens, "job");
        queue.add("default/pi");
        String metrics = send("GET", "/metrics").body();
        assertThat(metrics)
                .contains(
                        "workqueue_depth{name=\"job\"} 1.0",
                        "workqueue_adds_total{name=\"job\"} 1.0",
                        "workqueue_retries_total{name=\"job\"}",
                        "workqueue_queue_duration_seconds_bucket{name=\"job\"",
                        "workqueue_work_duration_seconds_count{name=\"job\"}",
                        "workqueue_unfinished_work_seconds{name=\"job\"}",
                        "workqueue_longest_running_processor_seconds{name=\"job\"}");
        queue.shutDown();
    }
}
