package io.kplane.apiserver.watch;

import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.http.Responses;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.RoutingContext;

/** WebSocket upgrade helpers shared by the watch and the streaming pod subresources. */
public final class WebSockets {
    private WebSockets() {}

    /** {@code Connection: Upgrade} + {@code Upgrade: websocket}, as {@code wsstream.IsWebSocketRequest}. */
    public static boolean isUpgradeRequest(HttpServerRequest request) {
        String upgrade = request.getHeader("Upgrade");
        String connection = request.getHeader("Connection");
        return upgrade != null
                && upgrade.equalsIgnoreCase("websocket")
                && connection != null
                && connection.toLowerCase(java.util.Locale.ROOT).contains("upgrade");
    }

    /**
     * Completes the handshake ({@code 101}); a request that cannot be upgraded (HTTP/2, a bad
     * {@code Sec-WebSocket-Version} or key) is answered with a 400 Status and a failed future.
     */
    public static Future<ServerWebSocket> accept(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String key = request.getHeader("Sec-WebSocket-Key");
        if (!request.canUpgradeToWebSocket()
                || key == null
                || key.isBlank()
                || !"13".equals(request.getHeader("Sec-WebSocket-Version"))) {
            ApiError error = ApiError.badRequest("cannot upgrade this request to a WebSocket (HTTP/1.1 GET with "
                    + "Connection: Upgrade, Upgrade: websocket, Sec-WebSocket-Version: 13 and Sec-WebSocket-Key)");
            Responses.error(ctx, error);
            return Future.failedFuture(error);
        }
        return request.toWebSocket().onFailure(t -> {
            Responses.error(ctx, ApiError.badRequest("WebSocket handshake failed: " + t.getMessage()));
        });
    }
}
