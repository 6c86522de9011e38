package io.kplane.store;

/**
 * Receives a watch's events in revision order, exactly once each. Called on a store thread: do not
 * block. {@code onError} ends the watch (e.g. {@link StoreException.Expired} when the start revision
 * was compacted away).
 */
public interface WatchListener {
    void onEvent(StoreEvent event);

    /** The store has seen every revision up to {@code revision} (for BOOKMARK events). */
    default void onProgress(long revision) {}

    void onError(Throwable error);
}
