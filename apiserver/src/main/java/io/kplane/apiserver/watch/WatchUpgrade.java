package io.kplane.apiserver.watch;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Consumer;

/**
 * Picks the watch's transport as kube-apiserver does ({@code wsstream.IsWebSocketRequest}): a request
 * with {@code Connection: Upgrade} and {@code Upgrade: websocket} gets {@code 101 Switching Protocols}
 * and a {@link WebSocketWatchStream}; any other request the chunked {@link ChunkedWatchStream}. A
 * malformed upgrade (wrong version, missing key) is answered with a finished 400 Status, never with
 * an endless 200 a WebSocket client would wait on.
 */
public final class WatchUpgrade {
    private WatchUpgrade() {}

    /** {@link #serve(RoutingContext, Consumer)} once {@code gate} (null: none) lets the answer go out. */
    public static void serve(RoutingContext ctx, WatchAnswerGate gate, Consumer<WatchStream> start) {
        if (gate == null) {
            serve(ctx, start);
            return;
        }
        Context context = Vertx.currentContext();
        // paused while held, resumed in the task that answers (as ResourceHandler does around its list):
        // resumed a task before the upgrade, held WebSocket handshakes never got their 101 (the JDK
        // client timed out)
        HttpServerRequest request = ctx.request();
        boolean paused = !request.isEnded();
        if (paused) {
            request.pause();
        }
        gate.beforeAnswer()
                .onComplete(ignored -> context.runOnContext(v -> {
                    if (paused) {
                        request.resume();
                    }
                    serve(ctx, start);
                }));
    }

    public static void serve(RoutingContext ctx, Consumer<WatchStream> start) {
        if (!WebSockets.isUpgradeRequest(ctx.request())) {
            start.accept(new ChunkedWatchStream(ctx.response()));
            return;
        }
        WebSockets.accept(ctx).onSuccess(socket -> start.accept(new WebSocketWatchStream(socket)));
    }
}
