package io.kplane.apiserver.ui;

import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /ui/api/...}: the browser's single origin for every component's lens.
 * <ul>
 *   <li>{@code GET /ui/api/components}: the components announced by Leases;</li>
 *   <li>{@code GET /ui/api/components/{c}/snapshot} and {@code .../stream?since=N} (Server-Sent Events,
 *       passed through chunk by chunk, never buffered);</li>
 *   <li>{@code GET /ui/api/components/{c}/objects/{namespace}/{name}}: the last syncs of one object;</li>
 *   <li>{@code POST /ui/api/components/{c}/controllers/{name}/pause|resume|step}.</li>
 * </ul>
 * Only these paths are forwarded, and only to endpoints a Lease announces.
 */
final class LensProxy {
    private static final Pattern COMPONENT_PATH = Pattern.compile(
            "^/ui/api/components/([a-z0-9][a-z0-9.-]{0,252})/(snapshot|stream|objects/[a-z0-9][a-z0-9.-]{0,252}/[a-z0-9][a-z0-9.-]{0,252}"
                    + "|controllers/([a-z0-9][a-z0-9_.-]{0,62})/(pause|resume|step))$");

    private final LensDirectory directory = new LensDirectory(Clock.systemUTC());
    private HttpClient client;

    void components(RoutingContext ctx) {
        directory
                .list(
                        ctx.vertx(),
                        ctx.request().localAddress(),
                        ctx.request().isSSL(),
                        ctx.request().getHeader(HttpHeaders.AUTHORIZATION))
                .onComplete(ar -> {
                    if (ar.failed()) {
                        fail(ctx, ar.cause());
                        return;
                    }
                    List<Map<String, Object>> items = new ArrayList<>();
                    for (LensEndpoint e : ar.result()) {
                        Map<String, Object> item = new LinkedHashMap<>();
                        item.put("name", e.component());
                        item.put("kind", e.component().startsWith("kubelet-") ? "kubelet" : "controller");
                        item.put("endpoint", e.url());
                        item.put(
                                "renewTime",
                                e.renewTime() == null ? null : e.renewTime().toString());
                        item.put("stale", e.stale());
                        items.add(item);
                    }
                    ctx.response()
                            .putHeader(HttpHeaders.CONTENT_TYPE, Responses.JSON)
                            .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                            .end(Json.write(Map.of("components", items)));
                });
    }

    void forward(RoutingContext ctx) {
        Matcher m = COMPONENT_PATH.matcher(ctx.request().path());
        if (!m.matches()) {
            Responses.error(ctx, ApiError.pathNotFound());
            return;
        }
        boolean control = m.group(3) != null;
        HttpMethod expected = control ? HttpMethod.POST : HttpMethod.GET;
        if (ctx.request().method() != expected) {
            Responses.error(
                    ctx, ApiError.methodNotAllowed(ctx.request().method().name()));
            return;
        }
        String component = m.group(1);
        String lensPath = "/lens/" + m.group(2);
        if ("stream".equals(m.group(2))) {
            String since = ctx.request().getParam("since");
            if (since != null) {
                if (!since.matches("\\d{1,19}")) {
                    Responses.error(
                            ctx, ApiError.badRequest("since must be a record sequence number, got \"" + since + "\""));
                    return;
                }
                lensPath += "?since=" + since;
            }
        }
        String target = lensPath;
        ctx.request().pause();
        directory
                .find(
                        ctx.vertx(),
                        ctx.request().localAddress(),
                        ctx.request().isSSL(),
                        ctx.request().getHeader(HttpHeaders.AUTHORIZATION),
                        component)
                .onComplete(ar -> {
                    if (ar.failed()) {
                        fail(ctx, ar.cause());
                    } else if (ar.result().isEmpty()) {
                        Responses.error(
                                ctx,
                                ApiError.of(
                                        404,
                                        "NotFound",
                                        "no component \"" + component + "\" announces a lens (Lease kube-system/"
                                                + LensDirectory.LEASE_PREFIX + component + ")"));
                    } else {
                        send(ctx, ar.result().get(), expected, target);
                    }
                });
    }

    private void send(RoutingContext ctx, LensEndpoint endpoint, HttpMethod method, String path) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setAbsoluteURI(endpoint.url() + path)
                .putHeader(
                        HttpHeaders.ACCEPT, path.startsWith("/lens/stream") ? "text/event-stream" : "application/json");
        HttpServerResponse out = ctx.response();
        client(ctx.vertx())
                .request(options)
                .compose(req -> {
                    // The browser went away: drop the component connection too (a stream never ends by itself).
                    out.closeHandler(v -> req.reset());
                    return req.send();
                })
                .onComplete(ar -> {
                    if (ar.failed()) {
                        if (!out.ended() && !out.closed()) {
                            Responses.error(
                                    ctx,
                                    ApiError.unavailable("component \"" + endpoint.component() + "\" at "
                                            + endpoint.url() + " is unreachable: "
                                            + ar.cause().getMessage()));
                        }
                        return;
                    }
                    pipe(ar.result(), out);
                });
    }

    /** Status, content type and body as they come; each chunk is written (and flushed) as it arrives. */
    private static void pipe(HttpClientResponse in, HttpServerResponse out) {
        if (out.closed()) {
            in.request().reset();
            return;
        }
        out.setStatusCode(in.statusCode()).setChunked(true);
        String type = in.getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null) {
            out.putHeader(HttpHeaders.CONTENT_TYPE, type);
        }
        out.putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (type != null && type.startsWith("text/event-stream")) {
            out.putHeader("X-Accel-Buffering", "no");
            out.writeHead();
        }
        in.pipeTo(out);
    }

    private static void fail(RoutingContext ctx, Throwable t) {
        if (t instanceof ApiError e) {
            Responses.error(ctx, e);
        } else {
            Responses.error(ctx, ApiError.unavailable("cannot list lens Leases: " + t.getMessage()));
        }
    }

    private synchronized HttpClient client(Vertx vertx) {
        if (client == null) {
            // No idle timeout: a lens stream is open as long as the page follows it (heartbeats every 15 s).
            client = vertx.createHttpClient(
                    new HttpClientOptions().setConnectTimeout(5000).setKeepAlive(false));
        }
        return client;
    }
}
