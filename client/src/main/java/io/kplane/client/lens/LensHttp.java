package io.kplane.client.lens;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code /lens/*} endpoints of a component's health server (JDK {@code HttpServer}):
 * {@code GET /lens/snapshot}, {@code GET /lens/stream?since=SEQ} (Server-Sent Events),
 * {@code GET /lens/objects/{namespace}/{name}} (the last syncs of one key) and
 * {@code POST /lens/controllers/{name}/pause|resume|step}. Shapes in docs/lens.md.
 *
 * <p>The stream polls the ring buffer every {@link #POLL_MS} ms rather than being woken by each
 * record, so the machinery's hot path never signals a reader; at most {@link #MAX_STREAMS}
 * streams run at once (503 beyond).
 */
public final class LensHttp {
    static final long POLL_MS = 100;
    static final long HEARTBEAT_MS = 15_000;
    static final int MAX_STREAMS = 8;
    static final int MAX_BATCH = 1000;

    private final LensRecorder lens;
    private final AtomicInteger streams = new AtomicInteger();
    private volatile boolean closed;

    public LensHttp(LensRecorder lens) {
        this.lens = lens;
    }

    public LensRecorder recorder() {
        return lens;
    }

    /** Ends the running streams (the server is stopping). */
    public void close() {
        closed = true;
    }

    /** Serves {@code exchange} (its path starts with {@code /lens/}). */
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        try {
            if (path.equals("/lens/snapshot")) {
                if (!requireMethod(exchange, method, "GET")) {
                    return;
                }
                json(exchange, 200, LensJson.snapshot(lens));
            } else if (path.equals("/lens/stream")) {
                if (!requireMethod(exchange, method, "GET")) {
                    return;
                }
                stream(exchange);
            } else if (path.startsWith("/lens/objects/")) {
                if (!requireMethod(exchange, method, "GET")) {
                    return;
                }
                String key = path.substring("/lens/objects/".length());
                List<Map<String, Object>> syncs =
                        lens.syncsOf(key).stream().map(LensJson::record).toList();
                json(exchange, 200, Map.of("key", key, "syncs", syncs));
            } else if (path.startsWith("/lens/controllers/")) {
                controlRequest(exchange, method, path.substring("/lens/controllers/".length()));
            } else {
                error(exchange, 404, "NotFound", "no lens endpoint " + path);
            }
        } finally {
            exchange.close();
        }
    }

    private void controlRequest(HttpExchange exchange, String method, String rest) throws IOException {
        int slash = rest.indexOf('/');
        String name = slash < 0 ? rest : rest.substring(0, slash);
        String action = slash < 0 ? "" : rest.substring(slash + 1);
        ControllerState controller = lens.controllerState(name);
        if (controller == null) {
            error(exchange, 404, "NotFound", "no controller \"" + name + "\" in " + lens.component());
            return;
        }
        if (action.isEmpty() && method.equals("GET")) {
            json(exchange, 200, controller.state());
            return;
        }
        if (!List.of("pause", "resume", "step").contains(action)) {
            error(exchange, 404, "NotFound", "unknown action \"" + action + "\": use pause, resume or step");
            return;
        }
        if (!requireMethod(exchange, method, "POST")) {
            return;
        }
        Map<String, Object> state =
                switch (action) {
                    case "pause" -> controller.pause();
                    case "resume" -> controller.resume();
                    default -> controller.step();
                };
        json(exchange, 200, state);
    }

    private void stream(HttpExchange exchange) throws IOException {
        long since;
        String q = query(exchange, "since");
        if (q == null) {
            String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
            q = lastEventId;
        }
        try {
            since = q == null || q.isEmpty() ? lens.seq() : Long.parseLong(q);
        } catch (NumberFormatException e) {
            error(exchange, 400, "BadRequest", "since must be a record sequence number, got \"" + q + "\"");
            return;
        }
        if (streams.incrementAndGet() > MAX_STREAMS) {
            streams.decrementAndGet();
            error(exchange, 503, "ServiceUnavailable", "too many lens streams open (" + MAX_STREAMS + ")");
            return;
        }
        try {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write((": lens stream of " + lens.component() + "\nretry: 2000\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            long lastWrite = System.currentTimeMillis();
            boolean wasSampling = false;
            while (!closed) {
                List<LensRecord> batch = lens.since(since, MAX_BATCH);
                StringBuilder sb = new StringBuilder();
                if (!batch.isEmpty() && batch.get(0).seq() > since + 1) {
                    sb.append(": skipped ")
                            .append(batch.get(0).seq() - since - 1)
                            .append(" records (behind the ring buffer)\n\n");
                }
                boolean sampling = lens.sampling();
                if (sampling != wasSampling) {
                    sb.append("event: sampling\ndata: {\"sampling\":")
                            .append(sampling)
                            .append("}\n\n");
                    wasSampling = sampling;
                }
                for (LensRecord r : batch) {
                    sb.append("id: ")
                            .append(r.seq())
                            .append('\n')
                            .append("data: ")
                            .append(LensJson.write(LensJson.record(r)))
                            .append("\n\n");
                    since = r.seq();
                }
                long now = System.currentTimeMillis();
                if (sb.length() == 0 && now - lastWrite >= HEARTBEAT_MS) {
                    sb.append(": heartbeat\n\n");
                }
                if (sb.length() > 0) {
                    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = now;
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away
        } finally {
            streams.decrementAndGet();
        }
    }

    private static String query(HttpExchange exchange, String name) {
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return null;
        }
        for (String part : raw.split("&", -1)) {
            int eq = part.indexOf('=');
            String k = eq < 0 ? part : part.substring(0, eq);
            if (k.equals(name)) {
                return eq < 0 ? "" : java.net.URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static boolean requireMethod(HttpExchange exchange, String method, String allowed) throws IOException {
        if (method.equals(allowed)) {
            return true;
        }
        exchange.getResponseHeaders().set("Allow", allowed);
        error(exchange, 405, "MethodNotAllowed", method + " is not allowed here; use " + allowed);
        return false;
    }

    /** A Kubernetes-style Status body. */
    static void error(HttpExchange exchange, int code, String reason, String message) throws IOException {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.put("status", "Failure");
        status.put("message", message);
        status.put("reason", reason);
        status.put("code", code);
        json(exchange, code, status);
    }

    static void json(HttpExchange exchange, int code, Object body) throws IOException {
        byte[] bytes = LensJson.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
