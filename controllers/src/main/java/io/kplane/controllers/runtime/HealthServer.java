package io.kplane.controllers.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.lens.LensHttp;
import io.kplane.client.lens.LensRecorder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The small HTTP endpoint every controller process exposes: {@code /healthz} (200 "ok" while the
 * process is healthy, 503 otherwise), {@code /metrics} in the Prometheus text format, and the lens's
 * {@code /lens/*} (docs/lens.md) once {@link #serveLens} is called.
 * The JDK's built-in server is enough for two tiny, rarely scraped endpoints.
 */
public final class HealthServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HealthServer.class);

    private final HttpServer server;
    private final PrometheusMeterRegistry registry;

    private HealthServer(HttpServer server, PrometheusMeterRegistry registry) {
        this.server = server;
        this.registry = registry;
    }

    /**
     * Starts serving on {@code bind:port} (port 0 picks a free port).
     *
     * @param healthy decides what {@code /healthz} answers
     */
    public static HealthServer start(String bind, int port, PrometheusMeterRegistry registry, BooleanSupplier healthy)
            throws IOException {
        return start(bind, port, registry, healthy, java.util.List::of);
    }

    /**
     * As above; {@code /healthz?verbose} also lists {@code checks} (one line each, Kubernetes' verbose
     * health format), e.g. when each informer last heard from the API server.
     */
    public static HealthServer start(
            String bind,
            int port,
            PrometheusMeterRegistry registry,
            BooleanSupplier healthy,
            java.util.function.Supplier<java.util.List<String>> checks)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 0);
        // Up to 12 threads, as lens streams (SSE) hold theirs for as long as a browser follows them, but
        // only one while idle: a fixed pool started a new thread for each of its first 12 requests, so a
        // launcher's once-a-second probe grew every controller to 12 idle threads. Beyond 12 at once the
        // server's own dispatcher thread answers.
        server.setExecutor(new ThreadPoolExecutor(
                1,
                12,
                30,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                DaemonThreads.named("health-server"),
                new ThreadPoolExecutor.CallerRunsPolicy()));
        server.createContext("/healthz", exchange -> {
            boolean ok = healthy.getAsBoolean();
            String query = exchange.getRequestURI().getQuery();
            if (query != null && query.contains("verbose")) {
                StringBuilder body = new StringBuilder(ok ? "[+]ping ok\n" : "[-]ping failed\n");
                checks.get().forEach(line -> body.append(line).append('\n'));
                body.append(ok ? "healthz check passed" : "healthz check failed");
                respond(exchange, ok ? 200 : 503, "text/plain; charset=utf-8", body.toString());
                return;
            }
            respond(exchange, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok" : "unhealthy");
        });
        server.createContext(
                "/metrics",
                exchange -> respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/", exchange -> respond(exchange, 404, "text/plain; charset=utf-8", "not found"));
        HealthServer health = new HealthServer(server, registry);
        server.createContext("/lens/", exchange -> {
            LensHttp http = health.lens;
            if (http == null) {
                respond(exchange, 404, "text/plain; charset=utf-8", "the lens is off (--lens=false)");
            } else {
                http.handle(exchange);
            }
        });
        server.start();
        log.info("health and metrics endpoint listening on {}:{}", bind, health.port());
        return health;
    }

    public static PrometheusMeterRegistry newRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    private volatile LensHttp lens;

    /** Serves {@code /lens/*} from {@code recorder} (snapshot, stream, pause/step). */
    public void serveLens(LensRecorder recorder) {
        this.lens = new LensHttp(recorder);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    private static void respond(HttpExchange exchange, int code, String contentType, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(code, -1);
                return;
            }
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        LensHttp http = lens;
        if (http != null) {
            http.close();
        }
        server.stop(0);
    }
}
