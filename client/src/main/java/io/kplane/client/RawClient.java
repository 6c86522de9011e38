package io.kplane.client;

import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/**
 * HTTP access to any API path, with the client's server, token and TLS settings: what the typed
 * {@link ResourceClient} is built on, and what CLIs use for discovery, Table output or {@code pods/log}.
 * Error responses become {@link ApiException}s; unreachable servers {@link ApiConnectionException}s.
 */
public final class RawClient {
    private final ClientConfig config;
    private final HttpClient http;

    RawClient(ClientConfig config, HttpClient http) {
        this.config = config;
        this.http = http;
    }

    public ClientConfig config() {
        return config;
    }

    /** Sends a request and returns the response whatever its status (only connection failures throw). */
    public RawResponse send(String method, String path, Map<String, String> query, byte[] body,
                            String contentType, String accept) {
        HttpRequest.Builder builder = builder(path, query, accept)
                .timeout(config.requestTimeout())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        HttpRequest request = builder.build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new RawResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new ApiConnectionException(request.uri().toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubeClientException("interrupted while calling " + request.uri(), e);
        }
    }

    /** Like {@link #send} but throws {@link ApiException} unless the status is 2xx. */
    public RawResponse request(String method, String path, Map<String, String> query, byte[] body,
                               String contentType, String accept) {
        RawResponse response = send(method, path, query, body, contentType, accept);
        if (!response.isSuccess()) {
            throw toApiException(response.statusCode(), response.body());
        }
        return response;
    }

    /**
     * Opens a streaming GET (watch, {@code pods/log?follow=true}) without a read timeout. The caller reads the
     * body as it arrives and must close the stream; closing it aborts the response.
     */
    public InputStream stream(String path, Map<String, String> query, String accept) {
        HttpRequest request = builder(path, query, accept).GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() < 200 || response.statusCode() >= 300) {
                byte[] body;
                try (InputStream in = response.body()) {
                    body = in.readNBytes(1 << 20);
                }
                throw toApiException(response.statusCode(), body);
            }
            return response.body();
        } catch (IOException e) {
            throw new ApiConnectionException(request.uri().toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubeClientException("interrupted while calling " + request.uri(), e);
        }
    }

    public URI uri(String path, Map<String, String> query) {
        StringBuilder url = new StringBuilder(config.server()).append(path);
        if (query != null && !query.isEmpty()) {
            StringJoiner joiner = new StringJoiner("&", "?", "");
            query.forEach((k, v) -> joiner.add(encode(k) + "=" + encode(v)));
            url.append(joiner);
        }
        return URI.create(url.toString());
    }

    private HttpRequest.Builder builder(String path, Map<String, String> query, String accept) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path, query))
                .header("Accept", accept == null ? "application/json" : accept)
                .header("User-Agent", "kplane-client/0.1");
        if (config.token() != null && !config.token().isEmpty()) {
            builder.header("Authorization", "Bearer " + config.token());
        }
        return builder;
    }

    /** A Status body becomes its code/reason/message; anything else gets a reason from the HTTP code. */
    static ApiException toApiException(int httpCode, byte[] body) {
        if (body != null && body.length > 0) {
            try {
                var tree = Json.mapper().readTree(body);
                if (tree != null && "Status".equals(tree.path("kind").asText())) {
                    Status status = Json.mapper().treeToValue(tree, Status.class);
                    int code = status.code() == null || status.code() == 0 ? httpCode : status.code();
                    return new ApiException(code, status.reason() == null ? reasonFor(code) : status.reason(),
                            status.message(), status);
                }
            } catch (IOException | RuntimeException e) {
                // not JSON: fall through and report the raw text
            }
        }
        String text = body == null ? "" : new String(body, 0, Math.min(body.length, 500), StandardCharsets.UTF_8).trim();
        return new ApiException(httpCode, reasonFor(httpCode),
                text.isEmpty() ? "the server responded " + httpCode + " " + reasonFor(httpCode) : text, null);
    }

    static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "Unknown";
        };
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
