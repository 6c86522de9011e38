package io.kplane.apiserver.watch;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.List;

/**
 * The plain watch: a {@code 200} chunked response of newline-delimited events. A burst of events is one
 * gathering socket write of the shared line buffers (see {@link EncodedEvents}), never a copy per watcher.
 */
public final class ChunkedWatchStream implements WatchStream {
    /** Room for bursts; a client this far behind is cut off. */
    private static final int WRITE_QUEUE_BYTES = 16 * 1024 * 1024;

    private final HttpServerResponse response;

    public ChunkedWatchStream(HttpServerResponse response) {
        this.response = response;
    }

    @Override
    public void open(String contentType, Runnable onClientGone) {
        response.setChunked(true);
        response.setWriteQueueMaxSize(WRITE_QUEUE_BYTES);
        response.setStatusCode(200);
        response.putHeader("Content-Type", contentType);
        response.closeHandler(v -> onClientGone.run());
        response.exceptionHandler(t -> onClientGone.run());
        response.writeHead();
    }

    @Override
    public void write(List<ByteBuf> events) {
        if (events.isEmpty() || response.closed()) {
            return;
        }
        response.write(BufferInternal.buffer(
                events.size() == 1
                        ? events.get(0)
                        : Unpooled.wrappedUnmodifiableBuffer(events.toArray(ByteBuf[]::new))));
    }

    @Override
    public boolean writeQueueFull() {
        return response.writeQueueFull();
    }

    @Override
    public void end() {
        if (!response.ended() && !response.closed()) {
            response.end();
        }
    }

    @Override
    public void abort() {
        response.reset();
    }
}
