package io.kplane.compat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.UUID;

/**
 * How compat's own fabric8 tests reach the shared stack: fabric8's default settings from the stack's
 * kubeconfig, and a fresh namespace per test class so classes never see each other's objects.
 */
final class Fabric8Clients {
    private Fabric8Clients() {}

    /** fabric8's default {@link Config}, read from the shared stack's kubeconfig (nothing overridden). */
    static Config config() {
        return Config.fromKubeconfig(KplaneStack.shared().kubeconfigText());
    }

    static KubernetesClient connect() {
        return connect(config());
    }

    static KubernetesClient connect(Config config) {
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** Creates a namespace named {@code prefix} plus a random suffix and returns its name. */
    static String createNamespace(KubernetesClient client, String prefix) {
        String ns = prefix + UUID.randomUUID().toString().substring(0, 8);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(ns)
                        .endMetadata()
                        .build())
                .create();
        return ns;
    }
}
