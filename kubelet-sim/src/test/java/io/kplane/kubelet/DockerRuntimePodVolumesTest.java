package io.kplane.kubelet;

import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Pod volumes with Docker Engine containers: bind mounts of the kubelet's prepared directories. Skipped,
 * saying why, when no engine answers at {@code DOCKER_HOST}.
 */
class DockerRuntimePodVolumesTest extends PodVolumesContract {
    private static Optional<String> unavailable = Optional.empty();

    @BeforeAll
    static void start() throws Exception {
        unavailable = TestImages.dockerUnavailable();
        if (unavailable.isPresent()) {
            System.out.println("SKIPPED docker runtime volume tests: " + unavailable.get());
            return;
        }
        String host = System.getenv("DOCKER_HOST");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            PodLifecycleContract.image = TestImages.workingBusybox(probe.client());
        }
        env = new KubeletFixture("docker-vol-node", "docker", host);
    }

    @BeforeEach
    void requireEngine() {
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "docker runtime test skipped: " + unavailable.get());
    }
}
