package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.core.Pod;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The same pod lifecycle as {@link ProcessRuntimePodLifecycleTest}, with containers run by a Docker
 * Engine API (Docker, or Podman's compatible service from {@code shared/tools/container-engine.sh}).
 * Skipped, saying why, when {@code DOCKER_HOST} is unset or no engine answers there.
 */
class DockerRuntimePodLifecycleTest extends PodLifecycleContract {

    private static Optional<String> unavailable = Optional.empty();

    @BeforeAll
    static void start() throws Exception {
        unavailable = TestImages.dockerUnavailable();
        if (unavailable.isPresent()) {
            System.out.println("SKIPPED docker runtime tests: " + unavailable.get());
            return;
        }
        String host = System.getenv("DOCKER_HOST");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            image = TestImages.workingBusybox(probe.client());
        }
        env = new KubeletFixture("docker-node", "docker", host);
    }

    /** Per test, so that each one is reported skipped, with the reason. */
    @BeforeEach
    void requireEngine() {
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "docker runtime test skipped: " + unavailable.get());
    }

    @Test
    void missingImageWithPullPolicyNeverWaitsWithErrImageNeverPull() {
        Pod pod = PodManifests.shPod("noimage", env.node, "Never", "echo never");
        // created straight through the client: the fixture would swap in the test image
        env.client
                .pods()
                .inNamespace("default")
                .create(pod.withSpec(pod.spec()
                        .withContainers(java.util.List.of(pod.spec()
                                .containers()
                                .get(0)
                                .withImage("localhost/kplane-no-such-image:1")
                                .withImagePullPolicy("Never")))));
        Pod waiting = env.awaitPod(
                "noimage",
                p -> p.status() != null
                        && !p.status().containerStatusesOrEmpty().isEmpty()
                        && p.status().containerStatuses().get(0).state().waiting() != null
                        && "ErrImageNeverPull"
                                .equals(p.status()
                                        .containerStatuses()
                                        .get(0)
                                        .state()
                                        .waiting()
                                        .reason()));
        assertThat(waiting.phase()).isEqualTo("Pending");
        assertThat(waiting.status().containerStatuses().get(0).state().waiting().message())
                .isEqualTo(
                        "Container image \"localhost/kplane-no-such-image:1\" is not present with pull policy of Never");
    }
}
