package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
