package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's start in two halves ({@link KubeletMain} runs the first while the cluster Clock is
 * awaited): the runtime and the endpoint come up without any API server, answering {@code /healthz}
 * 503; the Node, the pod workers and readiness come only with the second half.
 */
class KubeletStartPhasesTest {

    @Test
    void theEndpointListensWithoutAnApiServerAndIsReadyOnlyOnceTheNodeIsRegistered() throws Exception {
        Path root = Files.createTempDirectory("kubelet-phases");
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
            api.stop(); // the API server unreachable while the first half runs
            KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), "phases-node", root);
            try (Kubelet kubelet = new Kubelet(config, Clock.system()).startLocal()) {
                assertThat(healthz(kubelet.port())).isEqualTo(503);

                api.restart();
                kubelet.startNode();

                assertThat(healthz(kubelet.port())).isEqualTo(200);
                assertThat(client.nodes().find("phases-node"))
                        .hasValueSatisfying(n -> assertThat(n.isReady()).isTrue());
            }
        }
    }

    @Test
    void theNodeObjectIsRegisteredBeforeTheSecondHalfAndItsStatusOnlyWithIt() throws Exception {
        Path root = Files.createTempDirectory("kubelet-phases");
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
            api.stop(); // not reachable yet: the registration retries until it is
            KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), "early-node", root);
            try (Kubelet kubelet =
                    new Kubelet(config, Clock.system()).startLocal().startRegistration()) {
                api.restart();

                // the object carries no time, so it comes before the cluster time is known (startNode)
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> client.nodes().find("early-node").isPresent());
                io.kplane.api.core.Node early = client.nodes().get("early-node");
                assertThat(
                                early.status() == null
                                        ? java.util.List.of()
                                        : early.status().conditionsOrEmpty())
                        .isEmpty(); // its status (the cluster clock's times) waits for the second half
                assertThat(healthz(kubelet.port())).isEqualTo(503);

                kubelet.startNode();

                assertThat(healthz(kubelet.port())).isEqualTo(200);
                assertThat(client.nodes().get("early-node").isReady()).isTrue();
                assertThat(client.leases().inNamespace("kube-node-lease").find("early-node"))
                        .isPresent();
            }
        }
    }

    @Test
    void aRestartedKubeletReadsItsNodeEarlyAndPostsItsStatusWithTheSecondHalf() throws Exception {
        Path root = Files.createTempDirectory("kubelet-phases");
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
            KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), "again-node", root);
            try (Kubelet first = new Kubelet(config, Clock.system()).start()) {
                assertThat(client.nodes().get("again-node").isReady()).isTrue();
            }
            String uid = client.nodes().get("again-node").metadata().uid();
            markNotReady(client, "again-node"); // as the node-lifecycle controller does while a kubelet is away

            try (Kubelet again =
                    new Kubelet(config, Clock.system()).startLocal().startRegistration()) {
                again.startNode();

                assertThat(healthz(again.port())).isEqualTo(200);
                io.kplane.api.core.Node node = client.nodes().get("again-node");
                assertThat(node.metadata().uid()).isEqualTo(uid);
                assertThat(node.isReady()).isTrue();
            }
        }
    }

    @Test
    void aRestartedKubeletWhoseNodeWasDeletedCreatesItAgain() throws Exception {
        Path root = Files.createTempDirectory("kubelet-phases");
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
            KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), "gone-node", root);
            try (Kubelet first = new Kubelet(config, Clock.system()).start()) {
                assertThat(client.nodes().get("gone-node").isReady()).isTrue();
            }
            String uid = client.nodes().get("gone-node").metadata().uid();
            client.nodes().delete("gone-node"); // the root directory says "ran before"; the Node is gone

            try (Kubelet again =
                    new Kubelet(config, Clock.system()).startLocal().startRegistration()) {
                again.startNode();

                io.kplane.api.core.Node node = client.nodes().get("gone-node");
                assertThat(node.metadata().uid()).isNotEqualTo(uid);
                assertThat(node.isReady()).isTrue();
            }
        }
    }

    private static void markNotReady(KubeClient client, String name) {
        io.kplane.api.core.Node node = client.nodes().get(name);
        java.util.List<io.kplane.api.core.NodeCondition> conditions = node.status().conditions().stream()
                .map(c -> io.kplane.api.core.NodeCondition.READY.equals(c.type())
                        ? new io.kplane.api.core.NodeCondition(
                                c.type(),
                                "Unknown",
                                c.lastHeartbeatTime(),
                                c.lastTransitionTime(),
                                "NodeStatusUnknown",
                                "Kubelet stopped posting node status.")
                        : c)
                .toList();
        client.nodes().updateStatus(node.withStatus(node.status().withConditions(conditions)));
        assertThat(client.nodes().get(name).isReady()).isFalse();
    }

    @Test
    void theSecondHalfAloneIsRefused() throws Exception {
        Path root = Files.createTempDirectory("kubelet-phases");
        KubeletConfig config =
                KubeletConfig.defaults(ClientConfig.forServer("http://127.0.0.1:1"), "phases-node", root);
        try (Kubelet kubelet = new Kubelet(config, Clock.system())) {
            assertThatThrownBy(kubelet::startNode)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("startLocal() first");
        }
    }

    private static int healthz(int port) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
