package io.kplane.apiserver.ui;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the components' lens endpoints through their announcement Leases
 * ({@code kube-system/kplane-lens-*}, annotation {@code lens.kplane.io/endpoint}).
 *
 * <p>The Leases are listed through this API server's own HTTP port with the browser's
 * {@code Authorization} header, so the UI sees exactly what the caller may read through the API and
 * nothing is reachable that no Lease announces (the proxy is not an open relay). Results are cached
 * for a short time per credential: a page polls several components a second and the list barely changes.
 */
final class LensDirectory {
    static final String LEASE_PREFIX = "kplane-lens-";
    static final String ENDPOINT_ANNOTATION = "lens.kplane.io/endpoint";
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases";
    private static final long CACHE_MILLIS = 2000;
    private static final int CACHE_ENTRIES = 16;

    private final Clock clock;
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > CACHE_ENTRIES;
        }
    };
    private HttpClient plain;
    private HttpClient tls;

    private record Cached(long at, List<LensEndpoint> endpoints) {}

    LensDirectory(Clock clock) {
        this.clock = clock;
    }

    /** The announced endpoints, sorted by component name. */
    Future<List<LensEndpoint>> list(Vertx vertx, SocketAddress self, boolean ssl, String authorization) {
        String cacheKey = authorization == null ? "" : authorization;
        long now = clock.millis();
        synchronized (cache) {
            Cached hit = cache.get(cacheKey);
            if (hit != null && now - hit.at < CACHE_MILLIS) {
                return Future.succeededFuture(hit.endpoints);
            }
        }
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(self.hostAddress() == null ? "127.0.0.1" : self.hostAddress())
                .setPort(self.port())
                .setURI(LEASES)
                .putHeader(HttpHeaders.ACCEPT, "application/json");
        if (authorization != null) {
            request.putHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        return client(vertx, ssl)
                .request(request)
                .compose(req -> req.send())
                .compose(resp -> resp.body().map(body -> {
                    if (resp.statusCode() != 200) {
                        // The API's own answer (401, 403, ...) is the caller's answer.
                        JsonNode status = Json.read(body.toString(), JsonNode.class);
                        throw ApiError.of(
                                resp.statusCode(),
                                status.path("reason").asText("Unknown"),
                                "listing lens Leases: " + status.path("message").asText(body.toString()));
                    }
                    return parse(Json.read(body.toString(), JsonNode.class), clock.instant());
                }))
                .onSuccess(endpoints -> {
                    synchronized (cache) {
                        cache.put(cacheKey, new Cached(now, endpoints));
                    }
                });
    }

    /** One component's endpoint, or empty when no Lease announces it. */
    Future<Optional<LensEndpoint>> find(
            Vertx vertx, SocketAddress self, boolean ssl, String authorization, String component) {
        return list(vertx, self, ssl, authorization).map(all -> all.stream()
                .filter(e -> e.component().equals(component))
                .findFirst());
    }

    static List<LensEndpoint> parse(JsonNode leaseList, Instant now) {
        List<LensEndpoint> out = new ArrayList<>();
        for (JsonNode lease : leaseList.path("items")) {
            String name = lease.at("/metadata/name").asText();
            String url =
                    lease.at("/metadata/annotations").path(ENDPOINT_ANNOTATION).asText("");
            if (!name.startsWith(LEASE_PREFIX) || !(url.startsWith("http://") || url.startsWith("https://"))) {
                continue;
            }
            Instant renew = instant(lease.at("/spec/renewTime").asText(null));
            int duration = lease.at("/spec/leaseDurationSeconds").asInt(0);
            boolean stale =
                    renew != null && duration > 0 && renew.plusSeconds(duration).isBefore(now);
            out.add(new LensEndpoint(name.substring(LEASE_PREFIX.length()), stripSlash(url), renew, stale));
        }
        out.sort(Comparator.comparing(LensEndpoint::component));
        return List.copyOf(out);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static Instant instant(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private synchronized HttpClient client(Vertx vertx, boolean ssl) {
        if (ssl) {
            if (tls == null) {
                // Talks only to this server's own listening socket, whose certificate the caller
                // already accepted; the request carries the caller's own credentials.
                tls = vertx.createHttpClient(new HttpClientOptions()
                        .setSsl(true)
                        .setTrustAll(true)
                        .setVerifyHost(false)
                        .setConnectTimeout(5000));
            }
            return tls;
        }
        if (plain == null) {
            plain = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5000));
        }
        return plain;
    }
}
