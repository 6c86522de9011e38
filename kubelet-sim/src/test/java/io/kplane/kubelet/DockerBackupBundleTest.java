package io.kplane.kubelet;

import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;

/** {@link BackupBundleTest} with a docker-runtime kubelet; skipped, saying why, without an engine. */
class DockerBackupBundleTest extends BackupBundleTest {

    @BeforeAll
    static void start() throws Exception {
        Optional<String> unavailable = TestImages.dockerUnavailable();
        if (unavailable.isPresent()) {
            System.out.println("SKIPPED docker backup bundle test: " + unavailable.get());
            return;
        }
        startStack("docker", System.getenv("DOCKER_HOST"));
    }
}
