package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.apiserver.testing.TestApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CompactionAndOutageTest {
    static TestApiServer api;
    static Http http;

    @BeforeAll
    static void start() {
        // compaction only when the test asks for it, and then of everything older than 1 ms
        api = TestApiServer.start(c -> c.withCompaction(Duration.ofMillis(1), Duration.ofHours(1)), o -> {});
        http = new Http(api.url());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    static String pod(String name) {
        return """
                {"metadata":{"name":"%s","labels":{"app":"o"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}
                """
                .formatted(name);
    }

    /**
     * Compacts until the event log no longer holds the revision after {@code revision}: compaction takes
     * rows older than its 1 ms window, so a compaction right after the writes may not reach them yet.
     */
    private static void compactPast(long revision) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> api.store().compact().await(10, TimeUnit.SECONDS) > revision);
    }

    @Test
    void watchFromACompactedRevisionGets410() throws Exception {
        String rv = http.post("/api/v1/namespaces/default/pods", pod("c0"))
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        http.post("/api/v1/namespaces/default/pods", pod("c1"));
        http.post("/api/v1/namespaces/default/pods", pod("c2"));
        compactPast(Long.parseLong(rv));
        try (WatchClient w =
                new WatchClient(api.url() + "/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rv)) {
            await().atMost(Duration.ofSeconds(10)).until(w::ended);
            JsonNode error = w.events().get(w.events().size() - 1);
            assertThat(error.get("type").asText()).isEqualTo("ERROR");
            assertThat(error.at("/object/code").asInt()).isEqualTo(410);
            assertThat(error.at("/object/reason").asText()).isEqualTo("Expired");
        }
    }

    @Test
    void webSocketWatchFromACompactedRevisionGetsA410ErrorFrame() throws Exception {
        String rv = http.post("/api/v1/namespaces/default/pods", pod("cw0"))
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        http.post("/api/v1/namespaces/default/pods", pod("cw1"));
        compactPast(Long.parseLong(rv));
        try (WebSocketWatchClient w = new WebSocketWatchClient(
                api.url() + "/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rv)) {
            await().atMost(Duration.ofSeconds(10)).until(w::closed);
            JsonNode error = w.events().get(w.events().size() - 1);
            assertThat(error.get("type").asText()).isEqualTo("ERROR");
            assertThat(error.at("/object/code").asInt()).isEqualTo(410);
            assertThat(error.at("/object/reason").asText()).isEqualTo("Expired");
        }
    }

    @Test
    void databaseOutageGives503ThenRecoversAndWatchersMissNothing() {
        String rv = http.get("/api/v1/namespaces/default/pods")
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        List<String> created = new ArrayList<>();
        http.post("/api/v1/namespaces/default/pods", pod("before"));
        created.add("before");
        Set<String> seen = new LinkedHashSet<>();
        String[] lastRv = {rv};
        WatchClient[] watch = {openWatch(rv)};
        try {
            api.stopDatabase();
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            http.get("/api/v1/namespaces/default/pods/before").code() == 503);
            Http.Response down = http.get("/api/v1/namespaces/default/pods/before");
            assertThat(down.json().get("reason").asText()).isEqualTo("ServiceUnavailable");
            assertThat(http.get("/readyz").code()).isEqualTo(503);
            assertThat(http.get("/healthz").code()).isEqualTo(200);
        } finally {
            api.startDatabase();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> http.get("/readyz").code() == 200);
        for (int i = 0; i < 5; i++) {
            String name = "after" + i;
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                int code =
                        http.post("/api/v1/namespaces/default/pods", pod(name)).code();
                return code == 201 || code == 409;
            });
            created.add(name);
        }
        // like an informer: when the stream ends, watch again from the last revision seen
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (JsonNode e : watch[0].events()) {
                if (e.get("type").asText().equals("ADDED")) {
                    seen.add(e.at("/object/metadata/name").asText());
                }
                String erv = e.at("/object/metadata/resourceVersion").asText();
                if (!erv.isEmpty() && !e.get("type").asText().equals("ERROR")) {
                    lastRv[0] = erv;
                }
            }
            if (watch[0].ended()) {
                watch[0].close();
                watch[0] = openWatch(lastRv[0]);
            }
            return seen.containsAll(created);
        });
        watch[0].close();
        assertThat(seen).containsExactlyElementsOf(created);
    }

    private static WatchClient openWatch(String rv) {
        return new WatchClient(api.url() + "/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Do"
                + "&resourceVersion=" + rv);
    }
}
