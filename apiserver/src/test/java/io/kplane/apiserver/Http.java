package io.kplane.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A tiny JSON client for the tests (JDK HttpClient, real HTTP). */
public final class Http {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private String token;

    public Http(String base) {
        this.base = base;
    }

    public Http token(String value) {
        this.token = value;
        return this;
    }

    public record Response(int code, String body, java.net.http.HttpHeaders headers) {
        public JsonNode json() {
            return Json.tree(body);
        }

        public ObjectNode object() {
            return (ObjectNode) json();
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public Response get(String path) {
        return send("GET", path, null, null);
    }

    public Response get(String path, String accept) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", accept)
                .GET());
    }

    public Response post(String path, String json) {
        return send("POST", path, json, "application/json");
    }

    public Response put(String path, String json) {
        return send("PUT", path, json, "application/json");
    }

    public Response patch(String path, String body, String contentType) {
        return send("PATCH", path, body, contentType);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, null);
    }

    public Response delete(String path, String json) {
        return send("DELETE", path, json, "application/json");
    }

    public Response send(String method, String path, String body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b);
    }

    public Response send(HttpRequest.Builder builder) {
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> r = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpClient client() {
        return client;
    }

    public String base() {
        return base;
    }
}
