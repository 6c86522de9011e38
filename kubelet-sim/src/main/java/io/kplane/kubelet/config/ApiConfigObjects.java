package io.kplane.kubelet.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.client.RawClient;
import io.kplane.client.RawResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads ConfigMaps, Secrets, claims and volumes straight from the API server, each time it is asked
 * (the kubelet's "Get" change-detection strategy): a pod start or a volume refresh sees the newest
 * object, and nothing is cached that could go stale.
 */
public final class ApiConfigObjects implements ConfigObjects {
    private final RawClient raw;

    public ApiConfigObjects(RawClient raw) {
        this.raw = raw;
    }

    @Override
    public Optional<JsonNode> configMap(String namespace, String name) {
        return get("/api/v1/namespaces/" + enc(namespace) + "/configmaps/" + enc(name));
    }

    @Override
    public Optional<JsonNode> secret(String namespace, String name) {
        return get("/api/v1/namespaces/" + enc(namespace) + "/secrets/" + enc(name));
    }

    @Override
    public Optional<JsonNode> persistentVolumeClaim(String namespace, String name) {
        return get("/api/v1/namespaces/" + enc(namespace) + "/persistentvolumeclaims/" + enc(name));
    }

    @Override
    public Optional<JsonNode> persistentVolume(String name) {
        return get("/api/v1/persistentvolumes/" + enc(name));
    }

    private Optional<JsonNode> get(String path) {
        RawResponse response = raw.send("GET", path, null, null, null, "application/json");
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (!response.isSuccess()) {
            throw new IllegalStateException("GET " + path + ": " + response.statusCode() + " "
                    + response.bodyText().lines().findFirst().orElse(""));
        }
        try {
            return Optional.of(Json.mapper().readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
    }
}
