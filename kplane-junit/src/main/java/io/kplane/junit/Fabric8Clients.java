package io.kplane.junit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * fabric8's {@code KubernetesClient} for a test: built from the test's kubeconfig and otherwise
 * fabric8's defaults (WebSocket watches, default transport). Only loaded when fabric8 is on the
 * class path.
 */
final class Fabric8Clients {
    static final String CLIENT_CLASS = "io.fabric8.kubernetes.client.KubernetesClient";

    private Fabric8Clients() {}

    static KubernetesClient create(KplaneNamespace namespace) {
        try {
            return create(Files.readString(namespace.kubeconfig()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KubernetesClient create(String kubeconfig) {
        Config config = Config.fromKubeconfig(kubeconfig);
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
