package io.kplane.client;

import io.kplane.client.metrics.RequestResultObserver;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * HTTP access to any API path, with the client's server, token and TLS settings: what the typed
 * {@link ResourceClient} is built on, and what CLIs use for discovery, Table output or {@code pods/log}.
 * Error responses become {@link ApiException}s; unreachable servers {@link ApiConnectionException}s.
 */
public final class RawClient {
    private final ClientConfig config;
    private final HttpClient http;
    private volatile RequestResultObserver requestResults = RequestResultObserver.NOOP;

    RawClient(ClientConfig config, HttpClient http) {
        this.config = config;
        this.http = http;
    }

    public ClientConfig config() {
        return config;
    }

    /** Reports the outcome of every request from now on (a process's {@code rest_client_requests_total}). */
    public void observeRequestResults(RequestResultObserver observer) {
        this.requestResults = observer == null ? RequestResultObserver.NOOP : observer;
    }

    private void requestResult(HttpRequest request, String code) {
        URI uri = request.uri();
        String host = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        requestResults.increment(code, request.method(), host);
    }

    /** Sends a request and returns the response whatever its status (only connection failures throw). */
    public RawResponse send(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept) {
        HttpRequest.Builder builder = builder(path, query, accept)
                .timeout(config.requestTimeout())
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        HttpRequest request = builder.build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            requestResult(request, String.valueOf(response.statusCode()));
            return new RawResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            requestResult(request, RequestResultObserver.ERROR_CODE);
            throw new ApiConnectionException(request.uri().toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubeClientException("interrupted while calling " + request.uri(), e);
        }
    }

    /** Like {@link #send} but throws {@link ApiException} unless the status is 2xx. */
    public RawResponse request(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept) {
        RawResponse response = send(method, path, query, body, contentType, accept);
        if (!response.isSuccess()) {
            throw ApiException.fromResponse(response.statusCode(), response.body());
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
            requestResult(request, String.valueOf(response.statusCode()));
            if (response.statusCode() < 200 || response.statusCode() >= 300) {
                byte[] body;
                try (InputStream in = response.body()) {
                    body = in.readNBytes(1 << 20);
                }
                throw ApiException.fromResponse(response.statusCode(), body);
            }
            return response.body();
        } catch (IOException e) {
            requestResult(request, RequestResultObserver.ERROR_CODE);
            throw new ApiConnectionException(request.uri().toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubeClientException("interrupted while calling " + request.uri(), e);
        }
    }

    public URI uri(String path, Map<String, String> query) {
        return URI.create(config.url(path, query));
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
}
