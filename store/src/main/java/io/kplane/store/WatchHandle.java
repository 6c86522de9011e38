package io.kplane.store;

/** Stops a watch. Idempotent. */
public interface WatchHandle extends AutoCloseable {
    @Override
    void close();
}
