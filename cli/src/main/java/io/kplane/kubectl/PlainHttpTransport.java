package io.kplane.kubectl;

import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import io.kplane.client.ClientConfig;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.Map;
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
    public byte[] request(
            String method, String path, Map<String, String> query, byte[] body, String contentType, String accept) {
        if (method.equals("PATCH") || (method.equals("DELETE") && body != null)) {
            return full().request(method, path, query, body, contentType, accept);
        }
        String url = config.url(path, query);
        try {
            HttpURLConnection c =
                    open(url, accept, (int) config.requestTimeout().toMillis());
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
                throw ApiException.fromResponse(code, readAll(c.getErrorStream()));
            }
            return readAll(c.getInputStream());
        } catch (IOException e) {
            throw new ApiConnectionException(url, e);
        }
    }

    @Override
    public InputStream stream(String path, Map<String, String> query, String accept) {
        String url = config.url(path, query);
        try {
            HttpURLConnection c = open(url, accept, 0);
            int code = c.getResponseCode();
            if (code < 200 || code >= 300) {
                throw ApiException.fromResponse(code, readAll(c.getErrorStream()));
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

    private static byte[] readAll(InputStream in) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        try (in) {
            return in.readAllBytes();
        }
    }
}
