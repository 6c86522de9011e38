package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi/v3} over HTTP on a fresh server: the documents are built on the first request for
 * them (not at start), so the first requests, even several at once, get the same complete documents.
 */
class OpenApiHttpTest extends ApiServerHttpTest {

    @Test
    void theFirstRequestsAtOnceGetTheRootAndItsGroupDocumentsFollow() {
        List<Http.Response> first = IntStream.range(0, 4)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> http.get("/openapi/v3")))
                .toList()
                .stream()
                .map(CompletableFuture::join)
                .toList();
        for (Http.Response r : first) {
            assertThat(r.code()).as(r.body()).isEqualTo(200);
            assertThat(r.header("Content-Type")).isEqualTo("application/json");
            assertThat(r.body()).isEqualTo(first.get(0).body());
        }
        String batch = first.get(0)
                .json()
                .at("/paths/apis~1batch~1v1/serverRelativeURL")
                .asText();
        assertThat(batch).startsWith("/openapi/v3/apis/batch/v1?hash=");

        Http.Response group = http.get(batch);
        assertThat(group.code()).as(group.body()).isEqualTo(200);
        assertThat(group.json()
                        .at("/components/schemas/io.k8s.api.batch.v1.Job/x-kubernetes-group-version-kind/0/kind")
                        .asText())
                .isEqualTo("Job");
        assertThat(http.get("/openapi/v3/apis/nope/v1").code()).isEqualTo(404);
    }
}
