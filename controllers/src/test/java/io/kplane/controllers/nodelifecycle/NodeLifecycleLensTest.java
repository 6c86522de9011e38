package io.kplane.controllers.nodelifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodBuilder;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.ControllerTestSupport;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.RecordingEvents;
import io.kplane.controllers.testing.ServedLens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node lifecycle monitor's sync records over HTTP: a silent node goes Ready → Unknown and is tainted,
 * waits out the eviction delay (the record counts it down), has its pod marked Failed, and is untainted
 * when its heartbeat resumes; a healthy node leaves no record.
 */
class NodeLifecycleLensTest extends ApiServerTest {
    private ServedLens served;
    private SharedInformerFactory informers;
    private NodeLifecycleController controller;

    @BeforeEach
    void start() throws Exception {
        served = ServedLens.start("node-lifecycle");
        informers = new SharedInformerFactory(client, Clock.system()).withLens(served.lens);
        controller = new NodeLifecycleController(
                informers.informerFor(Node.class),
                informers.informerFor(Lease.class),
                informers.informerFor(Pod.class),
                client,
                new RecordingEvents(),
                Clock.system(),
                Duration.ofSeconds(2),
                // Each monitor pass over a node waiting out its eviction delay is one record, and the lens
                // keeps an object's last 10: 300 ms passes over the 1 s delay leave the first (mark-unknown)
                // record in the window however the passes are delayed (a slow pass makes fewer, not more).
                Duration.ofMillis(300),
                Duration.ofSeconds(1));
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        controller.start();
    }

    @AfterEach
    void stop() {
        controller.stop();
        informers.shutdown();
        served.close();
    }

    void renew(String node) {
        ControllerTestSupport.renewNodeLease(client, node);
    }

    private List<String> decisions(String key) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode r : served.syncsOf(key)) {
            out.add(r.path("sync").path("decision").asText());
        }
        return out;
    }

    @Test
    void aSilentNodeIsMarkedUnknownTaintedItsPodsFailedAndUntaintedWhenItComesBack() throws Exception {
        String lost = uniqueName("lost");
        String alive = uniqueName("alive");
        ControllerTestSupport.readyNode(client, lost, Map.of(), 110);
        ControllerTestSupport.readyNode(client, alive, Map.of(), 110);
        renew(lost);
        renew(alive);
        Pod victim = client.pods()
                .inNamespace("default")
                .create(PodBuilder.builder()
                        .metadata(ObjectMeta.named("default", uniqueName("victim")))
                        .spec(PodSpecBuilder.builder()
                                .nodeName(lost)
                                .restartPolicy("Never")
                                .containers(List.of(ContainerBuilder.builder()
                                        .name("main")
                                        .image("busybox")
                                        .build()))
                                .build())
                        .build());
        client.pods()
                .inNamespace("default")
                .updateStatus(victim.withStatus(
                        PodStatusBuilder.builder().phase("Running").build()));

        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    renew(alive);
                    return decisions(lost).stream().anyMatch(d -> d.contains("evict-pods"));
                });
        List<JsonNode> records = served.syncsOf(lost);
        JsonNode first = records.get(0);
        assertThat(first.path("controller").asText()).isEqualTo("node-lifecycle");
        assertThat(first.path("resource").asText()).isEqualTo("nodes");
        assertThat(first.path("sync").path("decision").asText()).isEqualTo("mark-unknown,taint,wait-eviction");
        assertThat(first.path("sync").path("saw").path("ready").asText()).isEqualTo("True");
        assertThat(first.path("sync").path("saw").path("gracePeriodSeconds").asInt())
                .isEqualTo(2);
        assertThat(first.path("sync").path("writes"))
                .extracting(w -> w.path("verb").asText())
                .containsExactly("update status (Ready=Unknown)", "update (add taints)");
        assertThat(first.path("sync").path("writes"))
                .allSatisfy(w -> assertThat(w.path("rv").asText()).isNotBlank());
        assertThat(first.path("sync").path("events").get(0).path("reason").asText())
                .isEqualTo("NodeNotReady");
        assertThat(first.path("sync").path("requeueAfterMs").asDouble()).isBetween(1.0, 1_000.0);

        JsonNode evicted = records.stream()
                .filter(r -> r.path("sync").path("decision").asText().contains("evict-pods"))
                .findFirst()
                .orElseThrow()
                .path("sync");
        assertThat(evicted.path("saw").path("ready").asText()).isEqualTo("Unknown");
        assertThat(evicted.path("saw").path("podsOnNode").asInt()).isEqualTo(1);
        assertThat(evicted.path("writes").get(0).path("verb").asText()).isEqualTo("update status (Failed, NodeLost)");
        assertThat(evicted.path("writes").get(0).path("key").asText()).isEqualTo("default/" + victim.name());
        assertThat(evicted.path("events").get(0).path("reason").asText()).isEqualTo("TaintManagerEviction");
        assertThat(client.pods().inNamespace("default").get(victim.name()).phase())
                .isEqualTo("Failed");

        // a dead node with nothing left to do is not recorded on every pass
        int settled = served.syncsOf(lost).size();
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(3)).until(() -> {
            renew(alive);
            return served.syncsOf(lost).size() == settled;
        });

        renew(lost);
        await().atMost(Duration.ofSeconds(10)).until(() -> decisions(lost).contains("untaint"));
        assertThat(served.syncsOf(alive)).as("a healthy node is not news").isEmpty();
        JsonNode snapshot = served.snapshot();
        assertThat(snapshot.path("controllers").get(0).path("name").asText()).isEqualTo("node-lifecycle");
        assertThat(snapshot.path("controllers").get(0).path("queue").isNull())
                .as("no workqueue: a timer drives it")
                .isTrue();
        assertThat(served.metrics()).doesNotContain("workqueue_depth");
    }
}
