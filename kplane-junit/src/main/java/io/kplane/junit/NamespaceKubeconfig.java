package io.kplane.junit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kubeconfig for one test: the stack's server (the test stack runs without token auth) with the
 * test's namespace as the context's default, so {@code kubectl apply -f} and every client land there.
 * Written as JSON, which kubectl and both Java clients read as YAML.
 */
final class NamespaceKubeconfig {
    private NamespaceKubeconfig() {}

    static String text(String server, String namespace) {
        ObjectNode config = KubeHttp.JSON.createObjectNode();
        config.put("apiVersion", "v1").put("kind", "Config").put("current-context", "kplane");
        config.putArray("clusters")
                .addObject()
                .put("name", "kplane")
                .putObject("cluster")
                .put("server", server);
        config.putArray("users").addObject().put("name", "kplane").putObject("user");
        config.putArray("contexts")
                .addObject()
                .put("name", "kplane")
                .putObject("context")
                .put("cluster", "kplane")
                .put("user", "kplane")
                .put("namespace", namespace);
        return config.toPrettyString();
    }

    static Path write(Path dir, String server, String namespace) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("kubeconfig-" + namespace);
            Files.writeString(file, text(server, namespace));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
