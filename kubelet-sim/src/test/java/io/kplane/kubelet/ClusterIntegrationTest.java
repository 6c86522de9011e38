package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.coordination.Lease;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.nodelifecycle.NodeLifecycleController;
import io.kplane.controllers.scheduler.Scheduler;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kubelet with the rest of the node machinery, all real: API server on PostgreSQL, scheduler,
 * node-lifecycle controller, kubelet-sim (in-process and as a separate JVM killed with -9).
 */
class ClusterIntegrationTest {
    static final String KUBELET_TOKEN = "kubelet-secret";
    static TestApiServer api;
    static KubeClient client;
    static SharedInformerFactory informers;
    static Scheduler scheduler;
    static NodeLifecycleController nodeLifecycle;
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start(o -> o.kubeletToken(KUBELET_TOKEN));
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        work = Files.createTempDirectory("cluster-it");
        informers = new SharedInformerFactory(client, Clock.system());
        ApiEventRecorder events = new ApiEventRecorder(client, "test", "test", Clock.system());
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                events,
                Clock.system(),
                Duration.ofSeconds(30));
        nodeLifecycle = new NodeLifecycleController(
                informers.informerFor(Node.class),
                informers.informerFor(Lease.class),
                informers.informerFor(Pod.class),
                client,
                events,
                Clock.system(),
                Duration.ofSeconds(3),
                Duration.ofMillis(200),
                Duration.ZERO);
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
        scheduler.startWorkers();
        nodeLifecycle.start();
    }

    @AfterAll
    static void stop() throws Exception {
        nodeLifecycle.stop();
        scheduler.stop(Duration.ofSeconds(5));
        informers.shutdown();
        api.close();
    }

    static Pod get(String name) {
        return client.pods().inNamespace("default").get(name);
    }

    @Test
    void scheduledPodRunsAndItsLogsAreServedThroughTheApiServer() throws Exception {
        KubeletConfig config = KubeletConfig.defaults(
                        ClientConfig.forServer(api.url()), "node-a", work.resolve("node-a"))
                .withLeaseInterval(Duration.ofSeconds(1))
                .withTokens(Set.of(KUBELET_TOKEN));
        try (Kubelet kubelet = new Kubelet(config, Clock.system()).start()) {
            Pod pod = PodManifests.shPod(
                    "ticker", "ignored", "Never", "for i in 1 2 3; do echo tick $i; sleep 0.3; done");
            client.pods().inNamespace("default").create(pod.withSpec(pod.spec().withNodeName(null)));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> "node-a".equals(get("ticker").nodeName()));

            // follow through the API server's pods/log proxy until the container ends
            String followed;
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> get("ticker").status() != null
                            && !get("ticker")
                                    .status()
                                    .containerStatusesOrEmpty()
                                    .isEmpty()
                            && get("ticker").status().containerStatuses().get(0).containerID() != null);
            try (InputStream in =
                    client.pods().inNamespace("default").stream("ticker", "log", Map.of("follow", "true"))) {
                followed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(followed).isEqualTo("tick 1\ntick 2\ntick 3\n");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> PodStatus.SUCCEEDED.equals(get("ticker").phase()));
            assertThat(client.pods()
                            .inNamespace("default")
                            .getSubresourceText("ticker", "log", Map.of("tailLines", "1")))
                    .isEqualTo("tick 3\n");

            // the kubelet endpoint itself wants the token
            HttpResponse<String> anonymous = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + kubelet.port()
                                            + "/containerLogs/default/ticker/main"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + kubelet.port() + "/healthz"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            HttpResponse<String> verbose = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + kubelet.port() + "/healthz?verbose"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(verbose.statusCode()).isEqualTo(200);
            assertThat(verbose.body())
                    .startsWith("[+]ping ok\n")
                    .containsPattern("\\[\\+]informer pods last event \\d{4}-\\d\\d-\\d\\dT\\S+ \\(\\d+s ago\\)\n")
                    .contains("\nhealthz check passed");
            HttpResponse<String> metrics = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + kubelet.port() + "/metrics"))
                                    .header("Authorization", "Bearer " + KUBELET_TOKEN)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body()).contains("kubelet_running_pods");
        }
    }

    @Test
    void nodeLossFailsItsPodsWithDisruptionTargetAndTheNodeComesBackReady() throws Exception {
        String node = "node-b";
        Path runs = work.resolve("node-b-runs.txt");
        Path log = work.resolve("node-b.log");
        KubeletProcess kubelet = KubeletProcess.start(
                api.url(), node, work.resolve(node), log, "process", "--endpoint-token", KUBELET_TOKEN);
        try {
            client.pods()
                    .inNamespace("default")
                    .create(PodManifests.shPod("stranded", node, "Never", "echo run >> " + runs + "; sleep 120"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> PodStatus.RUNNING.equals(get("stranded").phase()));

            kubelet.kill9(); // the lease stops being renewed
            await().atMost(Duration.ofSeconds(30)).until(() -> get("stranded").isTerminal());
            Pod failed = get("stranded");
            assertThat(failed.phase()).isEqualTo(PodStatus.FAILED);
            assertThat(failed.status().condition(PodCondition.DISRUPTION_TARGET).status())
                    .isEqualTo("True");
            assertThat(failed.status().condition(PodCondition.DISRUPTION_TARGET).reason())
                    .isEqualTo("DeletionByTaintManager");
            Node lost = client.nodes().get(node);
            assertThat(lost.status().condition("Ready").status()).isEqualTo("Unknown");
            assertThat(lost.status().condition("Ready").reason()).isEqualTo("NodeStatusUnknown");

            kubelet = KubeletProcess.start(
                    api.url(), node, work.resolve(node), log, "process", "--endpoint-token", KUBELET_TOKEN);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> client.nodes().get(node).isReady());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !client.nodes().get(node).toString().contains("node.kubernetes.io/unreachable"));
            // the pod stays Failed (a terminal phase is final), keeps its DisruptionTarget, never runs again
            Pod after = get("stranded");
            assertThat(after.phase()).isEqualTo(PodStatus.FAILED);
            assertThat(after.status().condition(PodCondition.DISRUPTION_TARGET)).isNotNull();
            assertThat(Files.readAllLines(runs)).hasSize(1);
        } finally {
            kubelet.close();
        }
    }
}
