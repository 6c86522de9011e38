package io.kplane.store.pg;

import java.time.Duration;

/**
 * Bounds on the group-commit writer, so that a stuck database or network fails writes with a clear
 * error instead of stalling every write with none.
 *
 * <p>The layers, innermost first: PostgreSQL cancels a statement waiting for a lock after
 * {@code lockTimeout} (SQLSTATE 55P03) and any statement after {@code statementTimeout} (57014), and
 * ends a session left idle inside a transaction after {@code idleInTransactionTimeout} (releasing the
 * revision lock a vanished writer held); TCP keepalive (both sides) notices a dead peer. When the
 * server cannot even answer (the network path is frozen), the writer's own {@code batchDeadline}
 * fails the batch and replaces its connection. Each of these answers 503; a write that may still
 * have been committed is never reported as done, and one reported done is committed.
 *
 * @param batchDeadline            a batch not committed within this fails (503) and its connection is replaced
 * @param maxQueuedWrites          writes waiting for the writer beyond this are refused at once (429, Retry-After)
 * @param statementTimeout         the writer session's {@code statement_timeout}
 * @param lockTimeout              the writer session's {@code lock_timeout}
 * @param idleInTransactionTimeout the writer session's {@code idle_in_transaction_session_timeout}
 */
public record WriterLimits(
        Duration batchDeadline,
        int maxQueuedWrites,
        Duration statementTimeout,
        Duration lockTimeout,
        Duration idleInTransactionTimeout) {
    public static final WriterLimits DEFAULT = new WriterLimits(
            Duration.ofSeconds(10), 10_000, Duration.ofSeconds(8), Duration.ofSeconds(5), Duration.ofSeconds(15));

    public WriterLimits {
        if (batchDeadline.isZero() || batchDeadline.isNegative() || maxQueuedWrites < 1) {
            throw new IllegalArgumentException("batchDeadline and maxQueuedWrites must be positive");
        }
    }

    /** Seconds a client told 429 should wait before retrying. */
    int retryAfterSeconds() {
        return 1;
    }
}
