package io.kplane.client;

import io.kplane.api.meta.WatchEvent;

/**
 * An open watch: events in the order the server sent them. Closing it (from any thread) ends the
 * HTTP response and makes a blocked {@link #next()} return null.
 */
public interface WatchStream<T> extends AutoCloseable {

    /**
     * Blocks for the next event. Returns null when the stream ended (server timeout, close).
     *
     * @throws ApiException when the server sent an {@code ERROR} event (e.g. 410 Expired)
     * @throws ApiConnectionException when the connection broke mid-stream
     */
    WatchEvent<T> next();

    @Override
    void close();
}
