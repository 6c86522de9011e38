package io.kplane.apiserver.watch;

import io.netty.buffer.ByteBuf;
import io.vertx.core.http.ServerWebSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The watch over a WebSocket, as kube-apiserver's {@code WatchServer.HandleWS} serves it to clients
 * that ask for an upgrade (fabric8's default): one event per text frame (JSON encodes as text), each
 * frame the same newline-terminated {@code {"type":..,"object":..}} line as the chunked stream; what
 * the client sends is ignored; the end of the watch (timeout, error event, server stop) is a close
 * frame with status 1000.
 */
public final class WebSocketWatchStream implements WatchStream {
    private static final int WRITE_QUEUE_BYTES = 16 * 1024 * 1024;

    private final ServerWebSocket socket;
    private boolean closed;

    public WebSocketWatchStream(ServerWebSocket socket) {
        this.socket = socket;
    }

    @Override
    public void open(String contentType, Runnable onClientGone) {
        socket.setWriteQueueMaxSize(WRITE_QUEUE_BYTES);
        // "Client should not send anything": frames from the client are read and dropped
        socket.handler(ignored -> {});
        socket.closeHandler(v -> {
            closed = true;
            onClientGone.run();
        });
        socket.exceptionHandler(t -> onClientGone.run());
    }

    @Override
    public void write(List<ByteBuf> events) {
        if (closed) {
            return;
        }
        for (ByteBuf event : events) {
            // a copy into a String: the line's bytes are shared with other watchers and must stay untouched
            socket.writeTextMessage(event.toString(event.readerIndex(), event.readableBytes(), StandardCharsets.UTF_8));
        }
    }

    @Override
    public boolean writeQueueFull() {
        return socket.writeQueueFull();
    }

    @Override
    public void end() {
        if (!closed) {
            closed = true;
            socket.close((short) 1000);
        }
    }

    @Override
    public void abort() {
        closed = true;
        socket.close((short) 1011, "client too slow");
    }
}
