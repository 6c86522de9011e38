package io.kplane.controllers.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeBuilder;
import io.kplane.api.core.NodeSpecBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.ControllerTestSupport;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.RecordingEvents;
import io.kplane.controllers.testing.ServedLens;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's sync records over HTTP: the node it bound a pod to and, for every other node, the filter
 * that rejected it (NotReady, unschedulable, node selector, too many pods); an unschedulable pod's record
 * with upstream's {@code 0/N nodes are available: ...} message, its FailedScheduling event and status write.
 */
class SchedulerLensTest extends ApiServerTest {
    private ServedLens served;
    private SharedInformerFactory informers;
    private Scheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        served = ServedLens.start("scheduler");
        informers = new SharedInformerFactory(client, Clock.system()).withLens(served.lens);
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                new RecordingEvents(),
                Clock.system(),
                Duration.ofSeconds(60));
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        scheduler.startWorkers();
    }

    @AfterEach
    void stop() throws Exception {
        scheduler.stop(Duration.ofSeconds(5));
        informers.shutdown();
        served.close();
    }

    @Test
    void theRecordSaysWhereThePodWentAndWhyEveryOtherNodeWasNot() throws Exception {
        ControllerTestSupport.readyNode(client, "a-ssd", Map.of("disk", "ssd"), 110);
        Node cordoned = ControllerTestSupport.readyNode(client, "b-cordoned", Map.of("disk", "ssd"), 110);
        client.nodes()
                .update(cordoned.withSpec(
                        NodeSpecBuilder.builder().unschedulable(true).build()));
        client.nodes()
                .create(NodeBuilder.builder()
                        .metadata(ObjectMetaBuilder.builder().name("c-notready").build())
                        .build());
        ControllerTestSupport.readyNode(client, "d-full", Map.of("disk", "ssd"), 0);
        ControllerTestSupport.readyNode(client, "e-hdd", Map.of("disk", "hdd"), 110);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> informers.informerFor(Node.class).lister().list().size() == 5
                        && informers
                                .informerFor(Node.class)
                                .lister()
                                .get(null, "b-cordoned")
                                .map(Node::isUnschedulable)
                                .orElse(false));

        Pod pod = client.pods()
                .inNamespace("default")
                .create(SchedulerTest.pod(uniqueName("placed"), Map.of("disk", "ssd")));
        String key = "default/" + pod.name();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> !served.syncsOf(key, "bound").isEmpty());
        JsonNode bound = served.syncsOf(key, "bound").get(0);
        assertThat(bound.path("controller").asText()).isEqualTo("scheduler");
        assertThat(bound.path("sync").path("reason").asText()).startsWith("to node a-ssd ");
        JsonNode saw = bound.path("sync").path("saw");
        assertThat(saw.path("node a-ssd").asText()).isEqualTo("chosen: fits, fewest pods (0)");
        assertThat(saw.path("node b-cordoned").asText()).startsWith("unschedulable");
        assertThat(saw.path("node c-notready").asText()).startsWith("NotReady");
        assertThat(saw.path("node d-full").asText()).isEqualTo("insufficient resources: Too many pods");
        assertThat(saw.path("node e-hdd").asText()).isEqualTo("didn't match Pod's node affinity/selector");
        await().atMost(Duration.ofSeconds(10)).until(() -> "a-ssd"
                .equals(client.pods().inNamespace("default").get(pod.name()).nodeName()));

        Pod picky = client.pods()
                .inNamespace("default")
                .create(SchedulerTest.pod(uniqueName("picky"), Map.of("disk", "nvme")));
        String pickyKey = "default/" + picky.name();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> !served.syncsOf(pickyKey, "unschedulable").isEmpty());
        JsonNode failed = served.syncsOf(pickyKey, "unschedulable").get(0).path("sync");
        String message = "0/5 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, "
                + "1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector.";
        assertThat(failed.path("reason").asText()).isEqualTo(message);
        assertThat(failed.path("events").get(0).path("reason").asText()).isEqualTo("FailedScheduling");
        assertThat(failed.path("events").get(0).path("message").asText()).isEqualTo(message);
        assertThat(failed.path("writes").get(0).path("verb").asText()).isEqualTo("update status (PodScheduled=False)");
        assertThat(failed.path("writes").get(0).path("rv").asText()).isNotBlank();
        assertThat(failed.path("requeueAfterMs").asDouble()).isEqualTo(60_000);
        assertThat(served.metrics())
                .contains("kplane_lens_sync_decisions_total{controller=\"scheduler\",decision=\"unschedulable\"}");
    }
}
