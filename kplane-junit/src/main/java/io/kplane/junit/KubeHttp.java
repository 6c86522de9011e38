package io.kplane.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The few API calls the extension makes itself (namespaces, the clock, the failure report), with the
 * JDK's HTTP client: it must work whichever Kubernetes client library the project uses, or none.
 */
final class KubeHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String server;

    KubeHttp(String server) {
        this.server = server;
    }

    /** The object at {@code path}, or {@code null} when the server answers 404. */
    JsonNode get(String path) {
        HttpResponse<String> r = send(request(path).GET());
        return r.statusCode() == 404 ? null : json(r, path);
    }

    /** The body of a plain-text endpoint (pod logs), or the error the server gave. */
    String text(String path) {
        HttpResponse<String> r = send(request(path).GET());
        return r.statusCode() / 100 == 2 ? r.body() : "(HTTP " + r.statusCode() + ") " + r.body();
    }

    JsonNode post(String path, String body) {
        return json(
                send(request(path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))),
                path);
    }

    JsonNode mergePatch(String path, String body) {
        return json(
                send(request(path)
                        .header("Content-Type", "application/merge-patch+json")
                        .method("PATCH", HttpRequest.BodyPublishers.ofString(body))),
                path);
    }

    /** Deletes; a missing object is not an error. */
    void delete(String path) {
        HttpResponse<String> r = send(request(path).DELETE());
        if (r.statusCode() != 404) {
            json(r, path);
        }
    }

    /** A GET on any URL (a component's own port), {@code null} when it cannot be reached. */
    JsonNode getAbsolute(String url) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server + path))
                .timeout(TIMEOUT)
                .header("Accept", "application/json");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("kplane API server at " + server + " unreachable: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(HttpResponse<String> r, String path) {
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(
                    r.request().method() + " " + path + ": HTTP " + r.statusCode() + " " + r.body());
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException(path + ": not JSON: " + r.body(), e);
        }
    }
}
