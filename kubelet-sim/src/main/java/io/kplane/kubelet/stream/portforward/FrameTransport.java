package io.kplane.kubelet.stream.portforward;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.NetSocket;

/**
 * Where a port-forward session's bytes go: binary WebSocket messages (SPDY tunnelled in a WebSocket,
 * as kubectl 1.32 sends it) or the raw upgraded connection (plain SPDY, kubectl's fallback).
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

    static FrameTransport of(NetSocket socket) {
        return new FrameTransport() {
            @Override
            public Future<Void> write(Buffer bytes) {
                return socket.write(bytes);
            }

            @Override
            public void close() {
                socket.close();
            }
        };
    }
}
