package io.kplane.kubelet.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** The key/value content of ConfigMaps and Secrets as the kubelet uses it. */
public final class ObjectData {
    private ObjectData() {}

    /** A ConfigMap's {@code data} (what env uses: binaryData never becomes a variable). */
    public static Map<String, String> configMapText(JsonNode cm) {
        Map<String, String> out = new LinkedHashMap<>();
        cm.path("data")
                .fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** A ConfigMap's files in a volume: {@code data} and the base64-decoded {@code binaryData}. */
    public static Map<String, byte[]> configMapFiles(JsonNode cm) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        cm.path("data")
                .fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText().getBytes(StandardCharsets.UTF_8)));
        cm.path("binaryData").fields().forEachRemaining(e -> out.put(e.getKey(), decode(e.getValue())));
        return out;
    }

    /**
     * A Secret's {@code data}, decoded. {@code stringData} is merged into {@code data} by the API server
     * and never stored, but an object from a server that kept it is read the same way.
     */
    public static Map<String, byte[]> secretData(JsonNode secret) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        secret.path("data").fields().forEachRemaining(e -> out.put(e.getKey(), decode(e.getValue())));
        secret.path("stringData")
                .fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText().getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    private static byte[] decode(JsonNode value) {
        try {
            return Base64.getDecoder().decode(value.asText());
        } catch (IllegalArgumentException e) {
            return Base64.getMimeDecoder().decode(value.asText());
        }
    }
}
