package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.PodStatus;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A kubelet-sim process whose API server is not there yet, or goes away under it, waits and retries
 * instead of exiting: it registers its node once the server comes, and runs pods after a restart.
 */
class KubeletApiOutageTest {

    @Test
    void aKubeletStartedBeforeItsApiServerWaitsRegistersAndRunsPods() throws Exception {
        Path work = Files.createTempDirectory("kubelet-outage");
        String node = "outage-node";
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
            api.stop();
            try (KubeletProcess kubelet =
                    KubeletProcess.start(api.url(), node, work.resolve(node), work.resolve(node + ".log"), "process")) {
                await().during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(10))
                        .until(kubelet::isAlive);

                api.restart();
                await().atMost(Duration.ofSeconds(90))
                        .ignoreExceptions()
                        .until(() ->
                                client.nodes().find(node).map(n -> n.isReady()).orElse(false));

                api.stop();
                await().during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(10))
                        .until(kubelet::isAlive);
                api.restart();
                Path ran = work.resolve("ran.txt");
                client.pods()
                        .inNamespace("default")
                        .create(PodManifests.shPod("after-outage", node, "Never", "echo run >> " + ran));
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> client.pods()
                                .inNamespace("default")
                                .find("after-outage")
                                .map(p -> PodStatus.SUCCEEDED.equals(p.phase()))
                                .orElse(false));
                assertThat(Files.readAllLines(ran)).containsExactly("run");
                assertThat(kubelet.isAlive())
                        .as(Files.readString(work.resolve(node + ".log")))
                        .isTrue();
            }
        }
    }
}
