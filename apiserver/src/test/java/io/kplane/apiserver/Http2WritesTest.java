package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Writes multiplexed on one HTTP/2 (cleartext upgrade) connection are handled on every event loop,
 * not only the connection's: results, errors and conflicts must be exactly those of HTTP/1.1.
 */
class Http2WritesTest extends ApiServerHttpTest {
    private static HttpClient h2;

    @BeforeAll
    static void http2Client() throws Exception {
        h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // the first request upgrades the connection; later ones are streams on it
        HttpResponse<String> first = h2.send(
                HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/namespaces"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(200);
    }

    private static CompletableFuture<HttpResponse<String>> send(
            String method, String path, String body, String contentType) {
        return h2.sendAsync(
                HttpRequest.newBuilder(URI.create(api.url() + path))
                        .header("Content-Type", contentType)
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void concurrentCreatesUpdatesAndErrorsKeepTheirSemantics() {
        List<CompletableFuture<HttpResponse<String>>> creates = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            creates.add(send("POST", "/api/v1/namespaces/default/pods", CrudTest.pod("h2-" + i), "application/json"));
        }
        CompletableFuture<HttpResponse<String>> invalid = send(
                "POST",
                "/api/v1/namespaces/default/pods",
                "{\"metadata\":{\"name\":\"h2-invalid\"},\"spec\":{\"containers\":[]}}",
                "application/json");
        CompletableFuture<HttpResponse<String>> malformed =
                send("POST", "/api/v1/namespaces/default/pods", "{", "application/json");
        CompletableFuture<HttpResponse<String>> noNamespace =
                send("POST", "/api/v1/namespaces/absent/pods", CrudTest.pod("h2-absent"), "application/json");
        for (CompletableFuture<HttpResponse<String>> f : creates) {
            HttpResponse<String> r = f.join();
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            assertThat(r.body()).contains("\"resourceVersion\"", "\"uid\"");
        }
        assertThat(invalid.join().statusCode()).as(invalid.join().body()).isEqualTo(422);
        assertThat(malformed.join().statusCode()).isEqualTo(400);
        assertThat(noNamespace.join().statusCode()).isEqualTo(404);
        assertThat(send("POST", "/api/v1/namespaces/default/pods", CrudTest.pod("h2-0"), "application/json")
                        .join()
                        .statusCode())
                .isEqualTo(409);

        HttpResponse<String> patched = send(
                        "PATCH",
                        "/api/v1/namespaces/default/pods/h2-1",
                        "{\"metadata\":{\"labels\":{\"patched\":\"yes\"}}}",
                        "application/merge-patch+json")
                .join();
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        assertThat(patched.body()).contains("\"patched\":\"yes\"");
        HttpResponse<String> stale = send(
                        "PUT",
                        "/api/v1/namespaces/default/pods/h2-2",
                        CrudTest.pod("h2-2")
                                .replace("\"name\":\"h2-2\"", "\"name\":\"h2-2\",\"resourceVersion\":\"1\""),
                        "application/json")
                .join();
        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
        assertThat(http.get("/api/v1/namespaces/default/pods/h2-39").code()).isEqualTo(200);
    }
}
