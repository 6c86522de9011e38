package io.kplane.kubelet.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kplane.api.util.DaemonThreads;
import io.kplane.kubelet.logs.CriLogReader;
import io.kplane.kubelet.logs.LogOptions;
import io.kplane.kubelet.logs.LogRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's HTTP endpoint: {@code GET /containerLogs/{namespace}/{pod}/{container}} (query
 * {@code follow, tailLines, timestamps, previous, sinceSeconds, sinceTime, limitBytes}; plain text,
 * chunked; a follow ends when the container ends), {@code /healthz} and {@code /metrics}. With tokens
 * configured every path but {@code /healthz} needs {@code Authorization: Bearer <token>}.
 */
public final class KubeletServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KubeletServer.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final LogRegistry logs;
    private final Set<String> tokens;
    private final PrometheusMeterRegistry metrics;
    private final Supplier<Instant> clock;

    private volatile boolean ready;
    /** Extra lines of {@code /healthz?verbose} (Kubernetes' verbose health format), e.g. the informer's last event. */
    private volatile Supplier<java.util.List<String>> healthChecks = java.util.List::of;

    public KubeletServer(
            String bind,
            int port,
            LogRegistry logs,
            Set<String> tokens,
            PrometheusMeterRegistry metrics,
            Supplier<Instant> clock)
            throws IOException {
        this.logs = logs;
        this.tokens = tokens;
        this.metrics = metrics;
        this.clock = clock;
        this.server = HttpServer.create(new InetSocketAddress(bind, port), 64);
        // follows block a thread each for as long as the container runs
        this.executor = Executors.newCachedThreadPool(DaemonThreads.named("kubelet-http"));
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    private volatile io.kplane.client.lens.LensHttp lens;

    /** Serves {@code /lens/*} from {@code recorder} (behind the same token check as logs). */
    public void serveLens(io.kplane.client.lens.LensRecorder recorder) {
        this.lens = new io.kplane.client.lens.LensHttp(recorder);
    }

    public void start() {
        server.start();
        log.info("kubelet endpoint listening on {}", server.getAddress());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** What {@code /healthz?verbose} lists besides the ping (one line each). */
    public void healthChecks(Supplier<java.util.List<String>> checks) {
        this.healthChecks = checks;
    }

    /** From now on {@code /healthz} answers 200: the node is registered with this start's addresses. */
    public void markReady() {
        ready = true;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            if (path.equals("/healthz")) {
                // healthy = registered: until the Node carries this start's addresses, the API server
                // would dial a previous address (a compose `up` gives the container a new IP)
                String query = ex.getRequestURI().getRawQuery();
                if (query != null && query.contains("verbose")) {
                    // as the controllers' /healthz?verbose: a stalled informer shows as an old last event
                    StringBuilder body = new StringBuilder(
                            ready ? "[+]ping ok\n" : "[-]ping failed: starting: node status not posted yet\n");
                    healthChecks.get().forEach(line -> body.append(line).append('\n'));
                    body.append(ready ? "healthz check passed" : "healthz check failed");
                    text(ex, ready ? 200 : 503, body.toString());
                } else if (ready) {
                    text(ex, 200, "ok");
                } else {
                    text(ex, 503, "starting: node status not posted yet");
                }
                return;
            }
            if (!authorized(ex)) {
                ex.getResponseHeaders().add("Content-Type", "application/json");
                byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}")
                        .getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(401, body.length);
                ex.getResponseBody().write(body);
                return;
            }
            io.kplane.client.lens.LensHttp lensHttp = lens;
            if (lensHttp != null && path.startsWith("/lens/")) {
                lensHttp.handle(ex); // the lens (docs/lens.md): snapshot, stream, pod-worker records
                return;
            }
            if (!"GET".equals(ex.getRequestMethod())) {
                text(ex, 405, "method not allowed");
                return;
            }
            if (path.equals("/metrics")) {
                ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
                return;
            }
            if (path.startsWith("/containerLogs/")) {
                containerLogs(ex, path.substring("/containerLogs/".length()));
                return;
            }
            text(ex, 404, "404 page not found");
        } catch (IOException e) {
            log.debug("client went away: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("request {} failed", ex.getRequestURI(), e);
        }
    }

    private boolean authorized(HttpExchange ex) {
        if (tokens.isEmpty()) {
            return true;
        }
        String header = ex.getRequestHeaders().getFirst("Authorization");
        return header != null
                && header.startsWith("Bearer ")
                && tokens.contains(header.substring(7).trim());
    }

    private void containerLogs(HttpExchange ex, String rest) throws IOException, InterruptedException {
        String[] parts = rest.split("/");
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            text(ex, 400, "expected /containerLogs/{namespace}/{pod}/{container}");
            return;
        }
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        LogOptions options;
        try {
            options = options(q);
        } catch (IllegalArgumentException e) {
            text(ex, 400, e.getMessage());
            return;
        }
        String ns = decode(parts[0]);
        String pod = decode(parts[1]);
        String container = decode(parts[2]);
        Optional<Path> file = logs.find(ns, pod, container, options.previous());
        if (file.isEmpty() || !Files.exists(file.get())) {
            text(
                    ex,
                    404,
                    options.previous()
                            ? "previous terminated container \"" + container + "\" in pod \"" + pod + "\" not found"
                            : "container \"" + container + "\" in pod \"" + pod
                                    + "\" is waiting to start: no logs yet");
            return;
        }
        Path path = file.get();
        ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(200, 0); // chunked
        OutputStream out = ex.getResponseBody();
        new CriLogReader(path, options, () -> !options.previous() && logs.isWriting(path)).copyTo(out);
        out.flush();
    }

    private LogOptions options(Map<String, String> q) {
        boolean follow = bool(q.get("follow"));
        Integer tail = q.containsKey("tailLines") ? nonNegativeInt("tailLines", q.get("tailLines")) : null;
        Instant since = null;
        if (q.containsKey("sinceSeconds")) {
            int s = nonNegativeInt("sinceSeconds", q.get("sinceSeconds"));
            since = clock.get().minusSeconds(s);
        } else if (q.containsKey("sinceTime")) {
            try {
                since = Instant.parse(q.get("sinceTime"));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("sinceTime: invalid RFC 3339 time \"" + q.get("sinceTime") + "\"");
            }
        }
        Long limit = q.containsKey("limitBytes") ? (long) nonNegativeInt("limitBytes", q.get("limitBytes")) : null;
        if (limit != null && limit == 0) {
            throw new IllegalArgumentException("limitBytes: must be greater than 0");
        }
        return new LogOptions(follow, tail, bool(q.get("timestamps")), since, limit, bool(q.get("previous")));
    }

    private static int nonNegativeInt(String name, String value) {
        try {
            int v = Integer.parseInt(value);
            if (v < 0) {
                throw new IllegalArgumentException(name + ": must be greater than or equal to 0");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": invalid integer \"" + value + "\"");
        }
    }

    private static boolean bool(String v) {
        return v != null && (v.isEmpty() || v.equalsIgnoreCase("true") || v.equals("1"));
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            q.put(k, v);
        }
        return q;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    private static void text(HttpExchange ex, int code, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(code, body.length);
        ex.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
