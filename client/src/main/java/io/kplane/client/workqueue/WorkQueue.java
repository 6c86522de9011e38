package io.kplane.client.workqueue;

import java.util.Optional;

/** A de-duplicating FIFO of items to process; see the package documentation for the contract. */
public interface WorkQueue<T> {

    /** Queues {@code item} unless it is already waiting; ignored after shutdown. */
    void add(T item);

    /** Number of items waiting (not counting those being processed). */
    int len();

    /**
     * Blocks until an item is available and marks it as being processed. Returns empty once the queue
     * is shut down and has no more items. The caller must call {@link #done(Object)} afterwards.
     */
    Optional<T> get() throws InterruptedException;

    /** Marks {@code item} as processed; if it was added again meanwhile, it is queued now. */
    void done(T item);

    /** Stops accepting items; {@link #get()} hands out what is left, then returns empty. */
    void shutDown();

    /** Like {@link #shutDown()}, then waits until every item being processed is {@link #done}. */
    void shutDownWithDrain() throws InterruptedException;

    boolean isShuttingDown();

    static <T> WorkQueue<T> create() {
        return new BasicWorkQueue<>();
    }
}
