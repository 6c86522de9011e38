package io.kplane.store.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a Testcontainers PostgreSQL when possible. Kept apart from {@link ContainerBackend} so that
 * test classpaths without Testcontainers never load a class that refers to it.
 */
final class ContainerSupport {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerSupport.class);

    private ContainerSupport() {}

    static TestPostgres.Backend tryStart() {
        if (Boolean.getBoolean("kplane.test.embeddedPostgres")) {
            return null;
        }
        try {
            Class.forName("org.testcontainers.DockerClientFactory");
        } catch (ClassNotFoundException e) {
            return null;
        }
        if (!Boolean.getBoolean("kplane.test.pullImages")) {
            java.nio.file.Path socket = LocalImages.socket();
            if (socket == null || !LocalImages.allPresent(socket, ContainerBackend.IMAGES)) {
                LOG.info(
                        "no Docker engine with {} present locally (set -Dkplane.test.pullImages=true to let "
                                + "Testcontainers pull them); using embedded PostgreSQL",
                        ContainerBackend.IMAGES);
                return null;
            }
        }
        try {
            return ContainerBackend.startIfDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            LOG.info("no usable Docker engine for Testcontainers ({}); using embedded PostgreSQL", e.toString());
            return null;
        }
    }
}
