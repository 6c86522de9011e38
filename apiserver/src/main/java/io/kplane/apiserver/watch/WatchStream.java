package io.kplane.apiserver.watch;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Where a {@link WatchSession} writes its events: a chunked HTTP response ({@link ChunkedWatchStream})
 * or a WebSocket ({@link WebSocketWatchStream}), as kube-apiserver's {@code WatchServer} serves
 * either {@code ServeHTTP} or {@code HandleWS}. Every method is called on the session's context.
 */
public interface WatchStream {

    /** Sends the response head (chunked) or nothing (the WebSocket is already open). */
    void open(String contentType, Runnable onClientGone);

    /** Writes events, each one newline-terminated JSON line (shared bytes: never released). */
    void write(List<ByteBuf> events);

    /** True once more is queued than the client reads: the session then cuts the client off. */
    boolean writeQueueFull();

    /** Ends the stream normally (end of the chunked body; WebSocket close 1000). */
    void end();

    /** Drops the connection (a client too slow to keep up). */
    void abort();
}
