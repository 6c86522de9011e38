package io.kplane.apiserver.watch;

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

    public static void serve(RoutingContext ctx, Consumer<WatchStream> start) {
        if (!WebSockets.isUpgradeRequest(ctx.request())) {
            start.accept(new ChunkedWatchStream(ctx.response()));
            return;
        }
        WebSockets.accept(ctx).onSuccess(socket -> start.accept(new WebSocketWatchStream(socket)));
    }
}
