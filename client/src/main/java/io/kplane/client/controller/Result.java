package io.kplane.client.controller;

import java.time.Duration;
import java.util.Objects;

/** What a {@link Reconciler} wants next: nothing, a rate-limited retry, or a retry after a delay. */
public final class Result {
    private static final Result DONE = new Result(false, null);
    private static final Result REQUEUE = new Result(true, null);

    private final boolean requeue;
    private final Duration requeueAfter;

    private Result(boolean requeue, Duration requeueAfter) {
        this.requeue = requeue;
        this.requeueAfter = requeueAfter;
    }

    /** Success: the key's back-off is forgotten. */
    public static Result done() {
        return DONE;
    }

    /** Try again with the queue's rate limiting (back-off grows). */
    public static Result requeue() {
        return REQUEUE;
    }

    /**
     * Success for now, and look again after {@code delay} (e.g. a deadline or the next cron time),
     * measured on the queue's clock from the start of the sync that returns it ({@link Controller}).
     */
    public static Result requeueAfter(Duration delay) {
        return new Result(true, Objects.requireNonNull(delay));
    }

    public boolean isRequeue() {
        return requeue;
    }

    /** The delay for {@link #requeueAfter}, or null. */
    public Duration requeueAfterDelay() {
        return requeueAfter;
    }

    @Override
    public String toString() {
        return requeueAfter != null ? "requeueAfter(" + requeueAfter + ")" : requeue ? "requeue" : "done";
    }
}
