package io.kplane.launcher;

import io.kplane.api.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes the stack's kubeconfig (cluster, user and context all named {@code kplane}). */
final class Kubeconfig {
    private Kubeconfig() {}

    static void write(Path file, String server, String token) throws IOException {
        Map<String, Object> user = new LinkedHashMap<>();
        if (token != null) {
            user.put("token", token);
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        config.put("clusters", List.of(Map.of("name", "kplane", "cluster", Map.of("server", server))));
        config.put("users", List.of(Map.of("name", "kplane", "user", user)));
        config.put(
                "contexts",
                List.of(Map.of(
                        "name",
                        "kplane",
                        "context",
                        Map.of("cluster", "kplane", "user", "kplane", "namespace", "default"))));
        config.put("current-context", "kplane");
        Files.createDirectories(file.getParent());
        Files.writeString(file, Json.writeYaml(config));
    }
}
