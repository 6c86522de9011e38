package io.kplane.controllers.nodelifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodBuilder;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.ControllerTestSupport;
import io.kplane.controllers.testing.RecordingEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Node loss against a real API server: Lease stops → node Unknown + tainted, pods Failed with DisruptionTarget. */
class NodeLifecycleControllerTest {
    TestApiServer api;
    KubeClient client;
    SharedInformerFactory informers;
    NodeLifecycleController controller;
    RecordingEvents events = new RecordingEvents();

    @BeforeEach
    void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        informers = new SharedInformerFactory(client, Clock.system());
        controller = new NodeLifecycleController(
                informers.informerFor(Node.class),
                informers.informerFor(Lease.class),
                informers.informerFor(Pod.class),
                client,
                events,
                Clock.system(),
                Duration.ofSeconds(2),
                Duration.ofMillis(100),
                Duration.ZERO);
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        controller.start();
    }

    @AfterEach
    void stop() {
        controller.stop();
        informers.shutdown();
        api.close();
    }

    void renew(String node) {
        ControllerTestSupport.renewNodeLease(client, node);
    }

    Pod runningPodOn(String name, String node) {
        Pod created = client.pods()
                .inNamespace("default")
                .create(PodBuilder.builder()
                        .metadata(ObjectMeta.named("default", name))
                        .spec(PodSpecBuilder.builder()
                                .nodeName(node)
                                .restartPolicy("Never")
                                .containers(List.of(ContainerBuilder.builder()
                                        .name("main")
                                        .image("busybox")
                                        .build()))
                                .build())
                        .build());
        return client.pods()
                .inNamespace("default")
                .updateStatus(created.withStatus(PodStatusBuilder.builder()
                        .phase("Running")
                        .conditions(List.of(new PodCondition("Ready", "True", null, Instant.now(), null, null)))
                        .build()));
    }

    @Test
    void silentNodeBecomesUnknownAndItsPodsFailWithDisruptionTarget() {
        ControllerTestSupport.readyNode(client, "lost", Map.of(), 110);
        ControllerTestSupport.readyNode(client, "alive", Map.of(), 110);
        renew("lost");
        renew("alive");
        runningPodOn("victim", "lost");
        runningPodOn("bystander", "alive");
        Pod done = client.pods()
                .inNamespace("default")
                .create(PodBuilder.builder()
                        .metadata(ObjectMeta.named("default", "done"))
                        .spec(PodSpecBuilder.builder()
                                .nodeName("lost")
                                .restartPolicy("Never")
                                .containers(List.of(ContainerBuilder.builder()
                                        .name("main")
                                        .image("busybox")
                                        .build()))
                                .build())
                        .build());
        client.pods()
                .inNamespace("default")
                .updateStatus(done.withStatus(
                        PodStatusBuilder.builder().phase("Succeeded").build()));

        // "alive" keeps renewing; "lost" stops
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    renew("alive");
                    Node n = client.nodes().get("lost");
                    return "Unknown"
                                    .equals(n.status()
                                            .condition(NodeCondition.READY)
                                            .status())
                            && System.nanoTime() > until;
                });
        Node lost = client.nodes().get("lost");
        NodeCondition ready = lost.status().condition(NodeCondition.READY);
        assertThat(ready.reason()).isEqualTo("NodeStatusUnknown");
        assertThat(ready.message()).isEqualTo("Kubelet stopped posting node status.");
        assertThat(lost.spec().taints())
                .extracting(t -> t.path("key").asText() + ":" + t.path("effect").asText())
                .contains("node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute");
        assertThat(client.nodes().get("alive").isReady()).isTrue();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.pods().inNamespace("default").get("victim").isTerminal());
        Pod victim = client.pods().inNamespace("default").get("victim");
        assertThat(victim.phase()).isEqualTo("Failed");
        assertThat(victim.status().reason()).isEqualTo("NodeLost");
        PodCondition disruption = victim.status().condition(PodCondition.DISRUPTION_TARGET);
        assertThat(disruption.status()).isEqualTo("True");
        assertThat(disruption.reason()).isEqualTo("DeletionByTaintManager");
        assertThat(disruption.message()).isEqualTo("Taint manager: deleting due to NoExecute taint");
        assertThat(victim.status().condition(PodCondition.READY).status()).isEqualTo("False");
        assertThat(client.pods().inNamespace("default").get("bystander").phase())
                .isEqualTo("Running");
        assertThat(client.pods().inNamespace("default").get("done").phase()).isEqualTo("Succeeded");
        assertThat(events.lines()).anyMatch(l -> l.endsWith("NodeNotReady: Node lost status is now: NodeNotReady"));

        // heartbeats resume: taints go away (the kubelet itself posts Ready again)
        renew("lost");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !NodeLifecycleController.hasUnreachableTaint(
                        client.nodes().get("lost")));
    }
}
