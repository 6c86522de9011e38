package io.kplane.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Write responses and watch events reuse the JSON the store wrote, with the revision spliced in
 * (EncodedObject): they must be exactly what serialising the stored object gives, i.e. what a GET of
 * the same revision returns.
 */
class EncodedResponsesTest extends ApiServerHttpTest {
    private static final String PODS = "/api/v1/namespaces/default/pods";

    @Test
    void writeResponsesAreByteIdenticalToReadsOfTheSameRevision() {
        try (WatchClient watch = new WatchClient(api.url() + PODS + "?watch=true&labelSelector=app%3Dencoded")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> watch.status() == 200);
            Http.Response created = http.post(
                    PODS,
                    """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"enc","labels":{"app":"encoded"},
                     "annotations":{"note":"ü \\"quoted\\" }{"}},
                     "spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}
                    """);
            assertThat(created.code()).as(created.body()).isEqualTo(201);
            assertThat(created.body()).isEqualTo(http.get(PODS + "/enc").body());

            Http.Response patched = http.patch(
                    PODS + "/enc/status", "{\"status\":{\"phase\":\"Running\"}}", "application/merge-patch+json");
            assertThat(patched.code()).as(patched.body()).isEqualTo(200);
            assertThat(patched.body()).isEqualTo(http.get(PODS + "/enc").body());

            Http.Response labelled = http.patch(
                    PODS + "/enc", "{\"metadata\":{\"labels\":{\"app\":\"other\"}}}", "application/merge-patch+json");
            assertThat(labelled.code()).as(labelled.body()).isEqualTo(200);

            await().atMost(Duration.ofSeconds(10)).until(() -> watch.events().size() == 3);
            assertThat(watch.summary()).containsExactly("ADDED enc", "MODIFIED enc", "DELETED enc");
            JsonNode[] expected = {created.json(), patched.json(), labelled.json()};
            for (int i = 0; i < 3; i++) {
                assertThat(watch.events().get(i).get("object")).isEqualTo(expected[i]);
            }
        }
    }
}
