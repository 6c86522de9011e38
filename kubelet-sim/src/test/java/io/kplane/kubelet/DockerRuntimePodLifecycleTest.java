package io.kplane.kubelet;

import io.kplane.kubelet.runtime.DockerRuntime;
import io.kplane.client.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The same pod lifecycle as {@link ProcessRuntimePodLifecycleTest}, with containers run by a Docker
 * Engine API (Docker, or Podman's compatible service from {@code shared/tools/container-engine.sh}).
 * Skipped, saying why, when {@code DOCKER_HOST} is unset or no engine answers there.
 */
class DockerRuntimePodLifecycleTest extends PodLifecycleContract {

    @BeforeAll
    static void start() throws Exception {
        Optional<String> why = TestImages.dockerUnavailable();
        if (why.isPresent()) {
            System.out.println("SKIPPED docker runtime tests: " + why.get());
        }
        Assumptions.assumeTrue(why.isEmpty(), () -> "docker runtime tests skipped: " + why.orElse(""));
        String host = System.getenv("DOCKER_HOST");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            image = TestImages.workingBusybox(probe.client());
        }
        env = new KubeletFixture("docker-node", "docker", host);
    }
}
