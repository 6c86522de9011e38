package io.kplane.client;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to reach the API server.
 *
 * @param server                URL, e.g. {@code http://127.0.0.1:6443}
 * @param token                 bearer token, or null
 * @param caCertificatePem      PEM of the CA that signed the server's certificate, or null for the JVM's trust store
 * @param insecureSkipTlsVerify trust any server certificate (for development only)
 * @param namespace             the default namespace of the kubeconfig context, or null
 * @param requestTimeout        timeout of ordinary (non-watch, non-streaming) requests
 */
public record ClientConfig(
        String server,
        String token,
        String caCertificatePem,
        boolean insecureSkipTlsVerify,
        String namespace,
        Duration requestTimeout) {

    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    public ClientConfig {
        Objects.requireNonNull(server, "server");
        server = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        URI uri = URI.create(server);
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("server must be a URL like http://127.0.0.1:6443, got " + server);
        }
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    }

    public static ClientConfig forServer(String server) {
        return new ClientConfig(server, null, null, false, null, null);
    }

    /**
     * The URL of an API {@code path} on this server, with {@code query} (may be null) percent-encoded.
     * Appended piece by piece, without {@code +}: in a short-lived process (kubectl-lite's {@code get})
     * this is the first string concatenation of the run, and linking JDK 17's concatenation call site
     * (method handles spun at run time) was ~15% of a {@code get pods} run's CPU samples
     * (docs/performance.md, "kubectl-lite").
     */
    public String url(String path, Map<String, String> query) {
        StringBuilder url = new StringBuilder(server).append(path);
        if (query != null) {
            char separator = '?';
            for (Map.Entry<String, String> e : query.entrySet()) {
                url.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
                separator = '&';
            }
        }
        return url.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    public ClientConfig withToken(String token) {
        return new ClientConfig(server, token, caCertificatePem, insecureSkipTlsVerify, namespace, requestTimeout);
    }

    public ClientConfig withCaCertificatePem(String pem) {
        return new ClientConfig(server, token, pem, insecureSkipTlsVerify, namespace, requestTimeout);
    }

    public ClientConfig withInsecureSkipTlsVerify(boolean insecure) {
        return new ClientConfig(server, token, caCertificatePem, insecure, namespace, requestTimeout);
    }

    public ClientConfig withNamespace(String ns) {
        return new ClientConfig(server, token, caCertificatePem, insecureSkipTlsVerify, ns, requestTimeout);
    }

    public ClientConfig withRequestTimeout(Duration timeout) {
        return new ClientConfig(server, token, caCertificatePem, insecureSkipTlsVerify, namespace, timeout);
    }

    @Override
    public String toString() {
        return "ClientConfig[server=" + server + ", token=" + (token == null ? "none" : "***")
                + ", ca=" + (caCertificatePem == null ? "system" : "custom") + ", insecure=" + insecureSkipTlsVerify
                + ", namespace=" + namespace + "]";
    }
}
