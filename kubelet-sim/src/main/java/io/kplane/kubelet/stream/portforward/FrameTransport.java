package io.kplane.kubelet.stream.portforward;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;

/**
 * Where a port-forward session's bytes go: binary WebSocket messages (SPDY tunnelled in a WebSocket, as
 * kubectl 1.32 sends it). An interface so that a raw upgraded connection (plain SPDY) can carry the same
 * session should the HTTP server ever switch protocols on a {@code POST}.
 */
interface FrameTransport {
    Future<Void> write(Buffer bytes);

    void close();

    static FrameTransport of(ServerWebSocket ws) {
        return new FrameTransport() {
            @Override
            public Future<Void> write(Buffer bytes) {
                return ws.writeBinaryMessage(bytes);
            }

            @Override
            public void close() {
                ws.close();
            }
        };
    }
}
