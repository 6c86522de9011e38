package io.kplane.client.lens;

/**
 * Observations derived from the lens for metrics exporters (the controllers' Prometheus registry):
 * the same measurements the records and the UI use, so there is no second bookkeeping.
 */
public interface LensListener {
    /** Every record kept in the ring (called outside the recorder's lock). */
    default void recorded(LensRecord record) {}

    /** A workqueue named {@code queue} now reports to the lens. */
    default void queueCreated(String queue) {}

    /** An item waited {@code seconds} in queue {@code queue} between being added and being taken. */
    default void queued(String queue, double seconds) {}

    /** A worker processed an item of {@code queue} for {@code seconds}. */
    default void worked(String queue, double seconds) {}

    /** add(item) on {@code queue} (workqueue_adds_total counts every add, as upstream). */
    default void added(String queue) {}

    /** addRateLimited on {@code queue} (workqueue_retries_total). */
    default void retried(String queue) {}
}
