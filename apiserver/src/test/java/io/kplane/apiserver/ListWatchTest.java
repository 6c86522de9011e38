package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ListWatchTest extends ApiServerHttpTest {
    @BeforeAll
    static void seed() {
        http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"lw\"}}");
        http.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"lw2\"}}");
    }

    static String pod(String name, String app) {
        return """
                {"metadata":{"name":"%s","labels":{"app":"%s"}},
                 "spec":{"containers":[{"name":"c","image":"busybox"}]}}
                """
                .formatted(name, app);
    }

    static String url(String pathAndQuery) {
        return api.url() + pathAndQuery;
    }

    @Test
    void selectorsAndPagination() {
        for (int i = 0; i < 7; i++) {
            assertThat(http.post("/api/v1/namespaces/lw/pods", pod("s" + i, i % 2 == 0 ? "even" : "odd"))
                            .code())
                    .isEqualTo(201);
        }
        http.post("/api/v1/namespaces/lw2/pods", pod("other", "even"));

        assertThat(names(http.get("/api/v1/namespaces/lw/pods?labelSelector=app%3Deven")
                        .json()))
                .containsExactly("s0", "s2", "s4", "s6");
        assertThat(names(http.get("/api/v1/namespaces/lw/pods?labelSelector=app+in+(odd)")
                        .json()))
                .containsExactly("s1", "s3", "s5");
        assertThat(names(http.get("/api/v1/namespaces/lw/pods?labelSelector=app!%3Deven")
                        .json()))
                .containsExactly("s1", "s3", "s5");
        assertThat(names(http.get("/api/v1/namespaces/lw/pods?fieldSelector=metadata.name%3Ds3")
                        .json()))
                .containsExactly("s3");
        assertThat(names(http.get("/api/v1/pods?labelSelector=app%3Deven").json()))
                .contains("s0", "other");
        assertThat(http.get("/api/v1/namespaces/lw/pods?fieldSelector=spec.foo%3Dx")
                        .code())
                .isEqualTo(400);
        assertThat(http.get("/api/v1/namespaces/lw/pods?labelSelector=%3D%3D%3D")
                        .code())
                .isEqualTo(400);

        List<String> paged = new ArrayList<>();
        String cont = "";
        int pages = 0;
        do {
            JsonNode page = http.get("/api/v1/namespaces/lw/pods?limit=3" + (cont.isEmpty() ? "" : "&continue=" + cont))
                    .json();
            paged.addAll(names(page));
            cont = page.at("/metadata/continue").asText("");
            pages++;
        } while (!cont.isEmpty());
        assertThat(paged).containsExactly("s0", "s1", "s2", "s3", "s4", "s5", "s6");
        assertThat(pages).isEqualTo(3);
        assertThat(http.get("/api/v1/namespaces/lw/pods?resourceVersionMatch=Exact")
                        .code())
                .isEqualTo(422);
        assertThat(http.get("/api/v1/namespaces/lw/pods?resourceVersion=abc").code())
                .isEqualTo(400);
    }

    static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.get("items").forEach(i -> out.add(i.at("/metadata/name").asText()));
        return out;
    }

    @Test
    void watchFromZeroSendsCurrentStateThenChanges() {
        http.post("/api/v1/namespaces/lw2/pods", pod("w0", "web"));
        try (WatchClient w = new WatchClient(
                url("/api/v1/namespaces/lw2/pods?watch=true&resourceVersion=0" + "&labelSelector=app%3Dweb"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED w0"));
            http.post("/api/v1/namespaces/lw2/pods", pod("w1", "web"));
            http.patch(
                    "/api/v1/namespaces/lw2/pods/w1",
                    "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}",
                    "application/merge-patch+json");
            // stops matching: DELETED; matches again: ADDED
            http.patch(
                    "/api/v1/namespaces/lw2/pods/w1",
                    "{\"metadata\":{\"labels\":{\"app\":\"db\"}}}",
                    "application/merge-patch+json");
            http.patch(
                    "/api/v1/namespaces/lw2/pods/w1",
                    "{\"metadata\":{\"labels\":{\"app\":\"web\"}}}",
                    "application/merge-patch+json");
            http.post("/api/v1/namespaces/lw2/pods", pod("nomatch", "db"));
            http.delete("/api/v1/namespaces/lw2/pods/w1");
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().size() >= 6);
            assertThat(w.summary())
                    .containsExactly("ADDED w0", "ADDED w1", "MODIFIED w1", "DELETED w1", "ADDED w1", "DELETED w1");
        }
    }

    @Test
    void watchResumesFromResourceVersionAndHonoursTimeout() {
        String rv = http.post("/api/v1/namespaces/lw2/pods", pod("r0", "resume"))
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        http.post("/api/v1/namespaces/lw2/pods", pod("r1", "resume"));
        http.post("/api/v1/namespaces/lw2/pods", pod("r2", "resume"));
        try (WatchClient w = new WatchClient(url("/api/v1/namespaces/lw2/pods?watch=true&resourceVersion=" + rv
                + "&labelSelector=app%3Dresume&timeoutSeconds=1"))) {
            await().atMost(Duration.ofSeconds(10)).until(w::ended);
            assertThat(w.status()).isEqualTo(200);
            assertThat(w.summary()).containsExactly("ADDED r1", "ADDED r2");
        }
    }

    @Test
    void bookmarksCarryTheLatestRevision() {
        try (WatchClient w = new WatchClient(
                url("/api/v1/namespaces/lw2/pods?watch=true&allowWatchBookmarks=true" + "&labelSelector=app%3Dbm"))) {
            String rv = http.post("/api/v1/namespaces/lw2/pods", pod("b0", "other"))
                    .json()
                    .at("/metadata/resourceVersion")
                    .asText();
            await().atMost(Duration.ofSeconds(10)).until(() -> w.events("BOOKMARK").stream()
                    .anyMatch(b -> Long.parseLong(
                                    b.at("/object/metadata/resourceVersion").asText())
                            >= Long.parseLong(rv)));
            JsonNode bookmark = w.events("BOOKMARK").get(0);
            assertThat(bookmark.at("/object/kind").asText()).isEqualTo("Pod");
            assertThat(w.summary()).isEmpty();
        }
    }

    @Test
    void watchSurvivesAnApiServerRestart() {
        String rv = http.post("/api/v1/namespaces/lw2/pods", pod("x0", "restart"))
                .json()
                .at("/metadata/resourceVersion")
                .asText();
        api.restart();
        http.post("/api/v1/namespaces/lw2/pods", pod("x1", "restart"));
        try (WatchClient w = new WatchClient(
                url("/api/v1/namespaces/lw2/pods?watch=true&resourceVersion=" + rv + "&labelSelector=app%3Drestart"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> w.summary().contains("ADDED x1"));
            assertThat(w.summary()).containsExactly("ADDED x1");
        }
    }
}
