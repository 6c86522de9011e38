package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Pod;
import io.kplane.api.patch.PatchType;
import io.kplane.client.lens.LensAnnouncer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kubelet's lens: announced in a Lease, served on its port, with the pod worker's decisions. */
class KubeletLensTest {
    private static KubeletFixture env;
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        env = new KubeletFixture("lens-node", "process", null);
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    @Test
    void podWorkerDecisionsAreServedAtTheAnnouncedEndpoint() throws Exception {
        Lease lease = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> env.client
                                .leases()
                                .inNamespace(LensAnnouncer.NAMESPACE)
                                .find("kplane-lens-kubelet-lens-node")
                                .orElse(null),
                        l -> l != null);
        String endpoint = lease.metadata().annotations().get(LensAnnouncer.ENDPOINT_ANNOTATION);
        assertThat(endpoint).isEqualTo("http://127.0.0.1:" + env.kubelet.port());
        assertThat(lease.spec().holderIdentity()).isEqualTo("lens-node");

        env.create(PodManifests.shPod("lensed", "lens-node", "Never", "exit 0"));
        env.awaitPhase("lensed", "Succeeded");
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/lens/snapshot"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode snapshot = json.readTree(r.body());
            assertThat(snapshot.path("component").asText()).isEqualTo("kubelet-lens-node");
            List<String> decisions = new ArrayList<>();
            for (JsonNode record : snapshot.path("records")) {
                if ("kubelet".equals(record.path("stage").asText())
                        && "default/lensed".equals(record.path("key").asText())) {
                    decisions.add(record.path("type").asText());
                }
            }
            assertThat(decisions).contains("Started", "status-written");
            assertThat(decisions.indexOf("Started")).isLessThan(decisions.lastIndexOf("status-written"));
            assertThat(snapshot.path("gauges")
                            .path("cacheObjects.pods@lens-node")
                            .asInt())
                    .isGreaterThanOrEqualTo(1);
        });
    }

    /**
     * A pod's status is written once per real change, as the kubelet's status manager does: the watch
     * echoes of the kubelet's own writes (and of other clients' metadata changes) are not written
     * back. The echo of a label change is the barrier: once the pod worker has completed a pass over
     * that copy, it has handled every echo before it.
     */
    @Test
    void aFinishedPodsStatusIsWrittenOncePerChangeNotOncePerEcho() throws Exception {
        Pod created = env.create(PodManifests.shPod("written-once", "lens-node", "Never", "exit 0"));
        env.awaitPhase("written-once", "Succeeded");
        Pod labelled = env.client
                .pods()
                .inNamespace("default")
                .patch("written-once", PatchType.MERGE, "{\"metadata\":{\"labels\":{\"echo\":\"barrier\"}}}");
        long barrier = Long.parseLong(labelled.metadata().resourceVersion());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> env.kubelet
                                .lastSyncedResourceVersion(created.metadata().uid())
                                .map(Long::parseLong)
                                .orElse(0L)
                        >= barrier);

        assertThat(env.find("written-once").orElseThrow().metadata().resourceVersion())
                .as("no status write after the echo of a label change")
                .isEqualTo(labelled.metadata().resourceVersion());
        List<String> writtenPhases = new ArrayList<>();
        JsonNode snapshot = json.readTree(HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + env.kubelet.port() + "/lens/snapshot"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        for (JsonNode record : snapshot.path("records")) {
            if ("status-written".equals(record.path("type").asText())
                    && "default/written-once".equals(record.path("key").asText())) {
                writtenPhases.add(record.path("detail").path("phase").asText());
            }
        }
        assertThat(writtenPhases).as("status writes by phase").containsOnlyOnce("Succeeded");
        assertThat(writtenPhases).as("status writes by phase").doesNotHaveDuplicates();
    }
}
