package io.kplane.store.pg;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes event-log rows older than the window. The compacted revision is raised and the rows
 * deleted in one transaction, so a reader sees either the rows or the raised mark, never a silent gap.
 * Several store instances may compact concurrently: {@code greatest()} keeps the mark monotonic.
 */
final class Compactor {
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    private final Pool pool;
    private final Clock clock;
    private final Duration window;

    Compactor(Pool pool, Clock clock, Duration window) {
        this.pool = pool;
        this.clock = clock;
        this.window = window;
    }

    /** Returns the compacted revision after this run. */
    Future<Long> compact() {
        long cutoff = clock.millis() - window.toMillis();
        return pool.withTransaction(conn -> conn.preparedQuery(Statements.COMPACT_UPTO)
                .execute(Tuple.of(cutoff))
                .compose(rows -> {
                    long upTo = rows.iterator().next().getLong(0);
                    return conn.preparedQuery(Statements.RAISE_COMPACTED).execute(Tuple.of(upTo));
                })
                .compose(rows -> {
                    long compacted = rows.iterator().next().getLong(0);
                    return conn.preparedQuery(Statements.DELETE_COMPACTED)
                            .execute(Tuple.of(compacted))
                            .map(deleted -> {
                                if (deleted.rowCount() > 0) {
                                    LOG.info(
                                            "compacted event log up to revision {} ({} rows removed)",
                                            compacted,
                                            deleted.rowCount());
                                }
                                return compacted;
                            });
                }));
    }
}
