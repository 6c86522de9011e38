package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import io.kplane.kubelet.runtime.NodeContainers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The docker runtime's containers outlive the kubelet process, so the node cleans them up itself: an
 * orderly shutdown (SIGTERM, e.g. {@code docker compose down}) removes them, and a kubelet that starts
 * removes those of pods that no longer exist. Skipped, saying why, when no Docker engine answers.
 */
class NodeContainersDockerTest {
    private static Optional<String> unavailable = Optional.empty();
    private static String image;

    private static TestApiServer api;
    private static KubeClient client;
    private static int nodes;
    private String node;
    private KubeletConfig config;
    private Kubelet kubelet;
    private NodeContainers containers;
    private DockerRuntime docker;

    @BeforeAll
    static void engine() throws Exception {
        unavailable = TestImages.dockerUnavailable();
        if (unavailable.isEmpty()) {
            try (DockerRuntime probe = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system())) {
                image = TestImages.workingBusybox(probe.client());
            }
            api = TestApiServer.start();
            client = KubeClient.create(ClientConfig.forServer(api.url()));
        }
    }

    @AfterAll
    static void stopApi() {
        if (api != null) {
            api.close();
        }
    }

    @BeforeEach
    void start() throws Exception {
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "docker runtime test skipped: " + unavailable.get());
        node = "shutdown-node-" + ++nodes;
        config = KubeletConfig.defaults(
                        ClientConfig.forServer(api.url()), node, Files.createTempDirectory("kubelet-shutdown"))
                .withRuntime("docker", System.getenv("DOCKER_HOST"))
                .withLeaseInterval(Duration.ofSeconds(1));
        kubelet = new Kubelet(config, Clock.system()).start();
        docker = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system());
        containers = new NodeContainers(docker.client(), node, api.url());
    }

    @AfterEach
    void stop() {
        if (kubelet != null) {
            kubelet.close();
        }
        if (containers != null) {
            containers.stopAndRemoveAll(Duration.ZERO);
        }
        if (docker != null) {
            docker.close();
        }
    }

    private void runSleeper(String name) {
        Pod pod = PodManifests.shPod(name, node, "Never", "sleep 300");
        client.pods()
                .inNamespace("default")
                .create(pod.withSpec(pod.spec()
                        .withContainers(List.of(
                                pod.spec().containers().get(0).withImage(image).withImagePullPolicy("IfNotPresent")))));
        await().atMost(Duration.ofSeconds(30)).until(() -> client.pods()
                .inNamespace("default")
                .find(name)
                .filter(p -> "Running".equals(p.phase()))
                .isPresent());
    }

    @Test
    void anOrderlyShutdownStopsAndRemovesTheNodesPodContainers() {
        runSleeper("sleeper");
        assertThat(containers.list()).hasSize(1);

        kubelet.shutdownNode(Duration.ofSeconds(1));
        kubelet = null;

        assertThat(containers.list()).isEmpty();
    }

    @Test
    void aStartingKubeletRemovesContainersOfPodsThatNoLongerExist() throws Exception {
        runSleeper("orphan");
        kubelet.close(); // a crash: the container keeps running
        kubelet = null;
        client.pods()
                .inNamespace("default")
                .delete("orphan", new io.kplane.api.meta.DeleteOptions(null, null, 0L, null, null, null, null));
        // the kubelet's own record of the pod is gone too (e.g. its state volume was removed)
        try (var files = Files.walk(config.rootDir())) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
        }
        assertThat(containers.list()).hasSize(1);

        kubelet = new Kubelet(config, Clock.system()).start();

        assertThat(containers.list()).isEmpty();
    }
}
