package io.kplane.kubelet;

import io.kplane.client.time.Clock;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link TtyKubectlTest} with a docker-runtime kubelet: the engine gives the container its terminal
 * ({@code Tty}, {@code OpenStdin}, {@code StdinOnce} at create) and the kubelet attaches with it and
 * resizes it (on Podman through DockerTerminalResizer's repeat: conmon before 2.2.0 can apply the first of
 * kubectl attach's two sizes, DockerTerminalResizeTest). Skipped, saying why, without an engine.
 */
class DockerTtyKubectlTest extends TtyKubectlTest {

    @BeforeAll
    static void start() throws Exception {
        Optional<String> unavailable = TestImages.dockerUnavailable();
        if (unavailable.isPresent()) {
            System.out.println("SKIPPED docker tty tests: " + unavailable.get());
            return;
        }
        String host = System.getenv("DOCKER_HOST");
        try (DockerRuntime probe = new DockerRuntime(host, Clock.system())) {
            image = TestImages.workingBusybox(probe.client());
        }
        startStack("docker", host);
    }
}
