package io.kplane.kubelet.stream;

import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.stream.portforward.PortForwardHandler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's endpoint as the API server reaches it: a Vert.x server, because the streaming
 * requests ({@code /exec}, {@code /attach}, {@code /portforward}) switch protocols (101) and the JDK
 * {@code HttpServer} behind the other endpoints cannot. Streaming requests are served here; every other
 * request ({@code /containerLogs}, {@code /metrics}, {@code /healthz}, {@code /lens}) is passed through,
 * headers and body streamed, to the {@link io.kplane.kubelet.server.KubeletServer} listening on a
 * loopback port of its own, which keeps its own token checks.
 *
 * <p>Protocols: WebSocket with {@code v5.channel.k8s.io} or {@code v4.channel.k8s.io} (the first of the
 * client's list that is supported, as apimachinery's {@code wsstream}) for exec and attach. Anything
 * else that asks to upgrade (SPDY) gets a finished 400 naming what is served; kubectl's fallback shows it.
 * Port forwarding has protocols of its own: {@link PortForwardHandler}.
 */
public final class StreamingServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StreamingServer.class);
    static final List<String> CHANNEL_PROTOCOLS = List.of(ChannelStream.V5, ChannelStream.V4);

    private final Vertx vertx;
    private final HttpServer server;
    private final HttpClient backend;
    private final int backendPort;
    private final Set<String> tokens;
    private final ContainerLookup lookup;
    private final ExecutorService pumps;
    private final ExecStreams exec;
    private final PortForwardHandler portForward;

    public StreamingServer(int backendPort, Set<String> tokens, ContainerLookup lookup, ContainerRuntime runtime) {
        this.vertx = Vertx.vertx(
                new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1).setInternalBlockingPoolSize(1));
        List<String> protocols = new ArrayList<>(CHANNEL_PROTOCOLS);
        protocols.add(PortForwardHandler.SPDY_TUNNEL_PROTOCOL);
        this.server = vertx.createHttpServer(new HttpServerOptions()
                .setWebSocketSubProtocols(protocols)
                .setMaxWebSocketMessageSize(1024 * 1024)
                .setMaxWebSocketFrameSize(1024 * 1024));
        this.backend = vertx.createHttpClient(new HttpClientOptions()
                .setKeepAlive(false)
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(backendPort));
        this.backendPort = backendPort;
        this.tokens = tokens;
        this.lookup = lookup;
        this.pumps = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "kubelet-stream");
            t.setDaemon(true);
            return t;
        });
        this.exec = new ExecStreams(runtime, pumps);
        this.portForward = new PortForwardHandler(PodPortTargets.of(lookup, runtime), pumps);
        server.requestHandler(this::handle);
    }

    /** Listens on {@code bind:port} (0 = a free port) and returns the port. */
    public int listen(String bind, int port) {
        try {
            HttpServer s = server.listen(port, bind)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            log.info(
                    "kubelet endpoint listening on {}:{} (streaming; other paths served by port {})",
                    bind,
                    s.actualPort(),
                    backendPort);
            return s.actualPort();
        } catch (Exception e) {
            throw new IllegalStateException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.actualPort();
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        if (!StreamRequest.isStreamPath(path)) {
            passThrough(request);
            return;
        }
        if (!authorized(request)) {
            request.response()
                    .setStatusCode(401)
                    .putHeader("Content-Type", "application/json")
                    .end("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
            return;
        }
        StreamRequest stream;
        try {
            stream = StreamRequest.parse(path, request.query());
        } catch (IllegalArgumentException e) {
            text(request, 400, e.getMessage());
            return;
        }
        if (stream.kind().equals("portforward")) {
            portForward.serve(request, stream.namespace(), stream.pod(), stream.uid(), stream.ports());
            return;
        }
        Optional<String> container =
                lookup.runningContainer(stream.namespace(), stream.pod(), stream.uid(), stream.container());
        if (container.isEmpty()) {
            text(request, 404, "container not found (\"" + stream.container() + "\")");
            return;
        }
        if (!isWebSocket(request)) {
            text(
                    request,
                    400,
                    isUpgrade(request)
                            ? "this kubelet serves " + stream.kind() + " over WebSocket ("
                                    + String.join(", ", CHANNEL_PROTOCOLS) + "), not over "
                                    + request.getHeader("Upgrade")
                            : "Upgrade request required");
            return;
        }
        Optional<String> protocol = negotiate(request.getHeader("Sec-WebSocket-Protocol"), CHANNEL_PROTOCOLS);
        if (protocol.isEmpty()) {
            text(
                    request,
                    400,
                    "requested protocol(s) are not supported: ["
                            + Optional.ofNullable(request.getHeader("Sec-WebSocket-Protocol"))
                                    .orElse("") + "]; supports "
                            + CHANNEL_PROTOCOLS);
            return;
        }
        request.toWebSocket()
                .onSuccess(ws -> exec.run(stream, container.get(), ws))
                .onFailure(t -> log.debug("WebSocket handshake failed: {}", t.getMessage()));
    }

    /** The first protocol of the client's list that {@code supported} has (wsstream's choice). */
    static Optional<String> negotiate(String header, List<String> supported) {
        if (header == null) {
            return Optional.empty();
        }
        for (String p : header.split(",")) {
            if (supported.contains(p.trim())) {
                return Optional.of(p.trim());
            }
        }
        return Optional.empty();
    }

    private static boolean isUpgrade(HttpServerRequest request) {
        String connection = request.getHeader("Connection");
        return request.getHeader("Upgrade") != null
                && connection != null
                && connection.toLowerCase(Locale.ROOT).contains("upgrade");
    }

    private static boolean isWebSocket(HttpServerRequest request) {
        return isUpgrade(request)
                && "websocket".equalsIgnoreCase(request.getHeader("Upgrade"))
                && request.method().name().equals("GET");
    }

    private boolean authorized(HttpServerRequest request) {
        if (tokens.isEmpty()) {
            return true;
        }
        String header = request.getHeader("Authorization");
        return header != null
                && header.startsWith("Bearer ")
                && tokens.contains(header.substring(7).trim());
    }

    /** Everything but streaming: to the JDK server, status, headers and body streamed both ways. */
    private void passThrough(HttpServerRequest request) {
        request.pause();
        RequestOptions options = new RequestOptions()
                .setMethod(request.method())
                .setURI(request.uri())
                .setHost("127.0.0.1")
                .setPort(backendPort);
        request.headers().forEach(h -> {
            if (!h.getKey().equalsIgnoreCase("Connection") && !h.getKey().equalsIgnoreCase("Host")) {
                options.addHeader(h.getKey(), h.getValue());
            }
        });
        var response = request.response();
        backend.request(options)
                .compose(req -> req.send(request))
                .onSuccess(resp -> {
                    response.setStatusCode(resp.statusCode());
                    resp.headers().forEach(h -> {
                        if (!h.getKey().equalsIgnoreCase("Transfer-Encoding")
                                && !h.getKey().equalsIgnoreCase("Connection")) {
                            response.headers().add(h.getKey(), h.getValue());
                        }
                    });
                    if (resp.getHeader("Content-Length") == null) {
                        response.setChunked(true);
                    }
                    response.closeHandler(v -> resp.request().connection().close());
                    // Not pipeTo: on a failure of the backend's response (above: the client went away, so its
                    // connection is closed) a pipe ends the client's response while chunks already read from
                    // the backend are still being delivered to it, and Vert.x logged IllegalStateException
                    // "Response has already been written" for each (seen right after start-up: the launcher's
                    // probe giving up on a slow first answer). The response is reset instead, never ended twice.
                    resp.pipe().endOnFailure(false).to(response).onFailure(t -> {
                        log.debug("pass-through ended: {}", t.getMessage());
                        if (!response.ended()) {
                            response.reset();
                        }
                    });
                })
                .onFailure(t -> {
                    if (!response.headWritten()) {
                        response.setStatusCode(502).end("kubelet endpoint unavailable: " + t.getMessage() + "\n");
                    } else {
                        response.reset();
                    }
                });
    }

    private static void text(HttpServerRequest request, int code, String message) {
        request.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .end(message + "\n");
    }

    @Override
    public void close() {
        try {
            server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.debug("closing the endpoint: {}", e.toString());
        }
        vertx.close();
        pumps.shutdownNow();
    }
}
