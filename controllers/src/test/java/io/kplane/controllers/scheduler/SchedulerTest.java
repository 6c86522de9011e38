package io.kplane.controllers.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodBuilder;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.ControllerTestSupport;
import io.kplane.controllers.testing.RecordingEvents;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler against a real API server: binding, spreading, capacity, unschedulable pods and retry. */
class SchedulerTest {
    TestApiServer api;
    KubeClient client;
    SharedInformerFactory informers;
    Scheduler scheduler;
    RecordingEvents events = new RecordingEvents();

    @BeforeEach
    void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        informers = new SharedInformerFactory(client, Clock.system());
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                events,
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
        api.close();
    }

    static Pod pod(String name, Map<String, String> nodeSelector) {
        return PodBuilder.builder()
                .metadata(ObjectMeta.named("default", name))
                .spec(PodSpecBuilder.builder()
                        .nodeSelector(nodeSelector)
                        .restartPolicy("Never")
                        .containers(List.of(ContainerBuilder.builder()
                                .name("main")
                                .image("busybox")
                                .build()))
                        .build())
                .build();
    }

    Pod get(String name) {
        return client.pods().inNamespace("default").get(name);
    }

    @Test
    void bindsPendingPodsSpreadingThemOverReadyNodes() {
        ControllerTestSupport.readyNode(client, "n1", Map.of(), 110);
        ControllerTestSupport.readyNode(client, "n2", Map.of(), 110);
        for (int i = 0; i < 6; i++) {
            client.pods().inNamespace("default").create(pod("p" + i, null));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> client.pods().inNamespace("default").list().stream()
                .allMatch(p -> p.nodeName() != null));
        Map<String, Integer> perNode = new HashMap<>();
        client.pods().inNamespace("default").list().forEach(p -> perNode.merge(p.nodeName(), 1, Integer::sum));
        assertThat(perNode).containsEntry("n1", 3).containsEntry("n2", 3);
        assertThat(get("p0").status().condition(PodCondition.POD_SCHEDULED).status())
                .isEqualTo("True");
        assertThat(events.lines())
                .anyMatch(l -> l.startsWith("default/p0 Scheduled: Successfully assigned default/p0 to"));
    }

    @Test
    void podThatFitsNowhereStaysPendingUntilANodeMatches() {
        ControllerTestSupport.readyNode(client, "plain1", Map.of(), 110);
        ControllerTestSupport.readyNode(client, "plain2", Map.of(), 110);
        client.pods().inNamespace("default").create(pod("picky", Map.of("disk", "ssd")));
        String expected = "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.";
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            PodCondition c =
                    get("picky").status() == null ? null : get("picky").status().condition("PodScheduled");
            return c != null && "False".equals(c.status());
        });
        PodCondition scheduled = get("picky").status().condition(PodCondition.POD_SCHEDULED);
        assertThat(scheduled.reason()).isEqualTo("Unschedulable");
        assertThat(scheduled.message()).isEqualTo(expected);
        assertThat(get("picky").phase()).isEqualTo("Pending");
        assertThat(events.lines()).contains("default/picky FailedScheduling: " + expected);

        // a node change makes the scheduler try again at once
        ControllerTestSupport.readyNode(client, "fast", Map.of("disk", "ssd"), 110);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "fast".equals(get("picky").nodeName()));
    }

    @Test
    void podCapacityIsCountedInNonTerminalPods() {
        ControllerTestSupport.readyNode(client, "tiny", Map.of(), 1);
        client.pods().inNamespace("default").create(pod("first", null));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "tiny".equals(get("first").nodeName()));
        client.pods().inNamespace("default").create(pod("second", null));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> get("second").status() != null
                        && get("second").status().condition(PodCondition.POD_SCHEDULED) != null);
        assertThat(get("second").status().condition(PodCondition.POD_SCHEDULED).message())
                .isEqualTo("0/1 nodes are available: 1 Too many pods.");
        // the first pod finishing frees the slot
        Pod first = get("first");
        client.pods()
                .inNamespace("default")
                .updateStatus(first.withStatus(first.status().withPhase("Succeeded")));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "tiny".equals(get("second").nodeName()));
    }
}
