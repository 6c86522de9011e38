package io.kplane.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kplane.api.json.Json;
import io.kplane.api.json.TreeReader;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CLI's calls to the API server, on JSON trees so that every field of every object survives a
 * round trip. Server errors surface as {@link ApiException}; an unreachable server as a
 * {@link CliException} naming the URL.
 */
public final class Api {
    public static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    public static final String JSON = "application/json";

    private final Transport transport;

    Api(Transport transport) {
        this.transport = transport;
    }

    public JsonNode get(String path, Map<String, String> query, String accept) {
        return call("GET", path, query, null, null, accept);
    }

    public JsonNode get(String path) {
        return get(path, Map.of(), JSON);
    }

    /** GET that returns null for 404 instead of throwing. */
    public JsonNode getOrNull(String path) {
        try {
            return get(path);
        } catch (ApiException e) {
            if (e.isNotFound()) {
                return null;
            }
            throw e;
        }
    }

    public JsonNode send(String method, String path, Map<String, String> query, JsonNode body, String contentType) {
        return call(method, path, query, body == null ? null : Json.writeBytes(body), contentType, JSON);
    }

    public JsonNode call(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept) {
        try {
            byte[] bytes = transport.request(method, path, query == null ? Map.of() : query, body, contentType, accept);
            if (bytes == null || bytes.length == 0) {
                return JsonNodeFactory.instance.objectNode();
            }
            // not Json.mapper(): a get that only prints a Table never initialises an ObjectMapper (TreeReader)
            return TreeReader.json(bytes);
        } catch (ApiConnectionException e) {
            throw unreachable();
        } catch (IOException e) {
            throw new CliException("error: the server sent an unreadable response: " + e.getMessage());
        }
    }

    /** Text body (pods/log without follow). */
    public String text(String path, Map<String, String> query) {
        try {
            return new String(
                    transport.request("GET", path, query, null, null, "application/json, */*"), StandardCharsets.UTF_8);
        } catch (ApiConnectionException e) {
            throw unreachable();
        }
    }

    /** A streaming GET (watch, log follow); the caller closes the stream. */
    public InputStream stream(String path, Map<String, String> query, String accept) {
        try {
            return transport.stream(path, query, accept);
        } catch (ApiConnectionException e) {
            throw unreachable();
        }
    }

    public CliException unreachable() {
        return new CliException("cannot reach the apiserver at " + transport.server()
                + ": connection refused (is it running? start it with ./kplane up)");
    }

    public static Map<String, String> query(String... keyValues) {
        Map<String, String> q = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            if (keyValues[i + 1] != null && !keyValues[i + 1].isEmpty()) {
                q.put(keyValues[i], keyValues[i + 1]);
            }
        }
        return q;
    }
}
