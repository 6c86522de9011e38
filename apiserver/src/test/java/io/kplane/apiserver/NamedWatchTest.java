package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET .../pods/NAME?watch=true} (kubectl {@code get pod x -w}) is a watch of that one object,
 * as kube-apiserver serves it: the collection's watch with {@code fieldSelector=metadata.name=NAME}.
 */
class NamedWatchTest extends ApiServerHttpTest {
    @BeforeAll
    static void seed() {
        http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"nw\"}}");
    }

    @Test
    void aChunkedWatchOnANamedPathSeesOnlyThatObject() {
        http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("target", "a"));
        http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("other", "a"));
        try (WatchClient w = new WatchClient(api.url() + "/api/v1/namespaces/nw/pods/target?watch=true")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED target"));
            http.patch(
                    "/api/v1/namespaces/nw/pods/other",
                    "{\"metadata\":{\"annotations\":{\"a\":\"1\"}}}",
                    "application/merge-patch+json");
            http.patch(
                    "/api/v1/namespaces/nw/pods/target",
                    "{\"metadata\":{\"annotations\":{\"a\":\"1\"}}}",
                    "application/merge-patch+json");
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().size() >= 2);
            assertThat(w.status()).isEqualTo(200);
            assertThat(w.summary()).containsExactly("ADDED target", "MODIFIED target");
        }
    }

    @Test
    void aWebSocketWatchOnANamedPathSeesOnlyThatObject() throws Exception {
        http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("ws-target", "b"));
        try (WebSocketWatchClient w =
                new WebSocketWatchClient(api.url() + "/api/v1/namespaces/nw/pods/ws-target?watch=true")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED ws-target"));
            http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("ws-other", "b"));
            http.delete("/api/v1/namespaces/nw/pods/ws-target?gracePeriodSeconds=0");
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("DELETED ws-target"));
            assertThat(w.summary()).doesNotContain("ADDED ws-other");
        }
    }

    @Test
    void aMatchingFieldSelectorIsAcceptedAndAnotherNameIsA400() {
        http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("sel", "c"));
        try (WatchClient w = new WatchClient(api.url()
                + "/api/v1/namespaces/nw/pods/sel?watch=true&fieldSelector=metadata.name%3Dsel&timeoutSeconds=1")) {
            await().atMost(Duration.ofSeconds(10)).until(w::ended);
            assertThat(w.summary()).containsExactly("ADDED sel");
        }
        Http.Response wrong = http.get("/api/v1/namespaces/nw/pods/sel?watch=true&fieldSelector=metadata.name%3Dx");
        assertThat(wrong.code()).isEqualTo(400);
        assertThat(wrong.json().at("/message").asText())
                .isEqualTo("fieldSelector metadata.name doesn't match requested name");
    }

    @Test
    void withoutWatchTheNamedPathIsStillAPlainGet() {
        http.post("/api/v1/namespaces/nw/pods", ListWatchTest.pod("plain", "d"));
        Http.Response r = http.get("/api/v1/namespaces/nw/pods/plain?watch=false");
        assertThat(r.code()).isEqualTo(200);
        assertThat(r.json().at("/kind").asText()).isEqualTo("Pod");
    }
}
