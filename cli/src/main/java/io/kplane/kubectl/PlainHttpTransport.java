package io.kplane.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.api.meta.Status;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import io.kplane.client.ClientConfig;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Supplier;

/**
 * Plain-HTTP requests through {@link HttpURLConnection}, for the common local case ({@code http://}).
 * It exists for start-up time: {@code java.net.http.HttpClient} builds the default SSLContext (trust
 * store, providers) even for plain HTTP, which costs a short-lived CLI more than its whole request.
 * {@code HttpURLConnection} cannot send PATCH (nor a DELETE body, portably), so those go to the full
 * client, created only then.
 */
final class PlainHttpTransport implements Transport {
    private static final String USER_AGENT = "kubectl-lite/0.1";

    static {
        // HttpURLConnection silently re-sends a POST whose reused connection failed: a create could run twice
        System.setProperty("sun.net.http.retryPost", "false");
    }

    private final ClientConfig config;
    private final Supplier<Transport> fullClient;
    private Transport full;

    PlainHttpTransport(ClientConfig config, Supplier<Transport> fullClient) {
        this.config = config;
        this.fullClient = fullClient;
    }

    static boolean handles(ClientConfig config) {
        return config.server().startsWith("http://");
    }

    @Override
    public byte[] request(String method, String path, Map<String, String> query, byte[] body, String contentType,
                          String accept) {
        if (method.equals("PATCH") || (method.equals("DELETE") && body != null)) {
            return full().request(method, path, query, body, contentType, accept);
        }
        String url = url(path, query);
        try {
            HttpURLConnection c = open(url, accept, (int) config.requestTimeout().toMillis());
            c.setRequestMethod(method);
            if (body != null) {
                c.setDoOutput(true);
                c.setFixedLengthStreamingMode(body.length);
                if (contentType != null) {
                    c.setRequestProperty("Content-Type", contentType);
                }
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body);
                }
            }
            int code = c.getResponseCode();
            if (code < 200 || code >= 300) {
                throw apiException(code, readAll(c.getErrorStream()));
            }
            return readAll(c.getInputStream());
        } catch (IOException e) {
            throw new ApiConnectionException(url, e);
        }
    }

    @Override
    public InputStream stream(String path, Map<String, String> query, String accept) {
        String url = url(path, query);
        try {
            HttpURLConnection c = open(url, accept, 0);
            int code = c.getResponseCode();
            if (code < 200 || code >= 300) {
                throw apiException(code, readAll(c.getErrorStream()));
            }
            return new FilterInputStream(c.getInputStream()) {
                @Override
                public void close() {
                    // drop the connection rather than drain an endless watch or log stream
                    c.disconnect();
                }
            };
        } catch (IOException e) {
            throw new ApiConnectionException(url, e);
        }
    }

    @Override
    public String server() {
        return config.server();
    }

    private synchronized Transport full() {
        if (full == null) {
            full = fullClient.get();
        }
        return full;
    }

    private HttpURLConnection open(String url, String accept, int readTimeoutMillis) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout((int) config.requestTimeout().toMillis());
        c.setReadTimeout(readTimeoutMillis);
        c.setUseCaches(false);
        c.setRequestProperty("Accept", accept == null ? "application/json" : accept);
        c.setRequestProperty("User-Agent", USER_AGENT);
        if (config.token() != null && !config.token().isEmpty()) {
            c.setRequestProperty("Authorization", "Bearer " + config.token());
        }
        return c;
    }

    private String url(String path, Map<String, String> query) {
        StringBuilder url = new StringBuilder(config.server()).append(path);
        if (query != null && !query.isEmpty()) {
            StringJoiner joiner = new StringJoiner("&", "?", "");
            query.forEach((k, v) -> joiner.add(encode(k) + "=" + encode(v)));
            url.append(joiner);
        }
        return url.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static byte[] readAll(InputStream in) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        try (in) {
            return in.readAllBytes();
        }
    }

    /** A Status body gives code, reason and message, as the full client reports them. */
    static ApiException apiException(int httpCode, byte[] body) {
        if (body.length > 0) {
            try {
                JsonNode tree = Json.mapper().readTree(body);
                if (tree != null && "Status".equals(tree.path("kind").asText())) {
                    Status status = Json.mapper().treeToValue(tree, Status.class);
                    int code = status.code() == null || status.code() == 0 ? httpCode : status.code();
                    return new ApiException(code, status.reason() == null ? reason(code) : status.reason(),
                            status.message(), status);
                }
            } catch (IOException | RuntimeException e) {
                // not JSON: report the text
            }
        }
        String text = new String(body, 0, Math.min(body.length, 500), StandardCharsets.UTF_8).trim();
        return new ApiException(httpCode, reason(httpCode),
                text.isEmpty() ? "the server responded " + httpCode + " " + reason(httpCode) : text, null);
    }

    private static String reason(int code) {
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
}
