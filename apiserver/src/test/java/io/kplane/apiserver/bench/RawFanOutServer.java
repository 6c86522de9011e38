package io.kplane.apiserver.bench;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The floor for watch fan-out on this machine: the API server's HTTP stack (Vert.x, chunked
 * responses, same number of event loops) with nothing else. {@code GET /watch} opens a stream;
 * {@code POST /publish} is answered 201 at once and its body, padded to {@code lineBytes}, is then
 * written as one line to every stream, exactly like a watch event. No database, no JSON, no store.
 */
final class RawFanOutServer implements AutoCloseable {
    private final Vertx vertx;
    private final int lineBytes;
    /** The streams of each event loop, written in one task per event loop per line. */
    private final Map<Context, List<HttpServerResponse>> streams = new ConcurrentHashMap<>();

    private volatile int port;

    private RawFanOutServer(int eventLoops, int lineBytes) {
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(eventLoops));
        this.lineBytes = lineBytes;
    }

    static RawFanOutServer start(int eventLoops, int lineBytes) throws java.util.concurrent.TimeoutException {
        RawFanOutServer s = new RawFanOutServer(eventLoops, lineBytes);
        // one server per event loop sharing one random port (-1), as the API server does
        s.vertx
                .deployVerticle(
                        () -> new VerticleBase() {
                            @Override
                            public Future<?> start() {
                                return vertx.createHttpServer(new HttpServerOptions()
                                                .setPort(-1)
                                                .setHost("127.0.0.1"))
                                        .requestHandler(s::handle)
                                        .listen()
                                        .onSuccess(server -> s.port = server.actualPort());
                            }
                        },
                        new DeploymentOptions().setInstances(eventLoops))
                .await(10, TimeUnit.SECONDS);
        return s;
    }

    /** Standalone, to point a {@link WatchLoadClient} at: {@code RawFanOutServer [eventLoops] [lineBytes]}. */
    public static void main(String[] args) throws Exception {
        RawFanOutServer s = start(
                args.length > 0 ? Integer.parseInt(args[0]) : 2, args.length > 1 ? Integer.parseInt(args[1]) : 1000);
        System.out.println("http://127.0.0.1:" + s.port());
    }

    int port() {
        return port;
    }

    private void handle(io.vertx.core.http.HttpServerRequest request) {
        if (request.path().equals("/watch")) {
            HttpServerResponse response =
                    request.response().setChunked(true).putHeader("Content-Type", "application/json");
            response.writeHead();
            Context context = vertx.getOrCreateContext();
            List<HttpServerResponse> mine = streams.computeIfAbsent(context, c -> new CopyOnWriteArrayList<>());
            mine.add(response);
            response.closeHandler(v -> mine.remove(response));
            return;
        }
        request.body().onSuccess(body -> {
            request.response()
                    .setStatusCode(201)
                    .putHeader("Content-Type", "application/json")
                    .end("{}");
            byte[] line = line(body);
            streams.forEach((context, responses) -> context.runOnContext(v -> {
                for (HttpServerResponse r : responses) {
                    r.write(Buffer.buffer(line));
                }
            }));
        });
    }

    /** {@code {"type":"ADDED","object":<body>,"pad":"xxx"}} + newline, {@code lineBytes} long when the body is shorter. */
    private byte[] line(Buffer body) {
        String head = "{\"type\":\"ADDED\",\"object\":" + body + ",\"pad\":\"";
        int pad = Math.max(0, lineBytes - head.length() - 3);
        return (head + "x".repeat(pad) + "\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws java.util.concurrent.TimeoutException {
        vertx.close().await(10, TimeUnit.SECONDS);
    }
}
