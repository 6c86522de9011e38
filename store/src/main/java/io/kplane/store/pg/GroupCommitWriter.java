package io.kplane.store.pg;

import io.kplane.store.StoreException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The one writer loop of a store instance. It takes every queued write (up to a bound) and commits
 * them in ONE transaction: lock the revision row, one pipelined statement per write, NOTIFY, COMMIT.
 * Holding the revision row lock from the first statement to COMMIT serialises revision assignment
 * and commit order across all store instances, so revisions become visible strictly in order; the
 * batching wins the throughput back (one WAL flush per batch instead of per write).
 *
 * <p>All loop state is confined to the writer's Vert.x context; callers on any thread only enqueue.
 */
final class GroupCommitWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);

    private final Pool pool;
    private final Context context;
    private final Clock clock;
    private final int maxBatchSize;
    private final LongConsumer onCommitted;
    private final Queue<WriteOp> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Ops to run one per transaction after a batch failed with an SQL error (isolates the bad op). */
    private final ArrayDeque<WriteOp> isolated = new ArrayDeque<>();
    private boolean busy;
    private volatile boolean closed;

    GroupCommitWriter(Pool pool, Context context, Clock clock, int maxBatchSize, LongConsumer onCommitted) {
        this.pool = pool;
        this.context = context;
        this.clock = clock;
        this.maxBatchSize = maxBatchSize;
        this.onCommitted = onCommitted;
    }

    void submit(WriteOp op) {
        if (closed) {
            op.promise.tryFail(new StoreException.Unavailable("store is closed", null));
            return;
        }
        queue.add(op);
        if (drainScheduled.compareAndSet(false, true)) {
            context.runOnContext(v -> {
                drainScheduled.set(false);
                drain();
            });
        }
    }

    void close() {
        closed = true;
        context.runOnContext(v -> {
            WriteOp op;
            while ((op = queue.poll()) != null) {
                op.promise.tryFail(new StoreException.Unavailable("store is closed", null));
            }
        });
    }

    private void drain() {
        if (busy) {
            return;
        }
        List<WriteOp> batch = new ArrayList<>();
        if (!isolated.isEmpty()) {
            batch.add(isolated.poll());
        } else {
            WriteOp op;
            while (batch.size() < maxBatchSize && (op = queue.poll()) != null) {
                batch.add(op);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        busy = true;
        commit(batch).onComplete(ar -> {
            busy = false;
            if (ar.succeeded()) {
                if (ar.result() > 0) {
                    onCommitted.accept(ar.result());
                }
            } else {
                failed(batch, ar.cause());
            }
            drain();
        });
    }

    /** Runs the batch in one transaction; completes each op's future on success; returns the last revision taken. */
    private Future<Long> commit(List<WriteOp> batch) {
        long createdMs = clock.millis();
        return pool.getConnection().compose(conn -> conn.begin()
                .compose(tx -> runStatements(conn, tx, batch, createdMs))
                .eventually(conn::close));
    }

    private Future<Long> runStatements(SqlConnection conn, Transaction tx, List<WriteOp> batch, long createdMs) {
        // Everything is pipelined on the connection: one round trip for the whole batch.
        List<Future<RowSet<Row>>> results = new ArrayList<>(batch.size());
        Future<RowSet<Row>> lock = conn.query(Statements.LOCK_REVISION).execute();
        for (WriteOp op : batch) {
            results.add(conn.preparedQuery(op.sql()).execute(op.params(createdMs)));
        }
        Future<RowSet<Row>> notify = conn.query(Statements.NOTIFY).execute();
        List<Future<?>> all = new ArrayList<>(results);
        all.add(lock);
        all.add(notify);
        return Future.join(all)
                .compose(v -> tx.commit())
                .map(v -> {
                    long last = 0;
                    for (int i = 0; i < batch.size(); i++) {
                        Row row = results.get(i).result().iterator().next();
                        last = Math.max(last, WriteOp.revisionOf(row));
                        batch.get(i).complete(row);
                    }
                    return last;
                })
                .recover(err -> tx.rollback().transform(ignored -> Future.failedFuture(firstCause(all, err))));
    }

    private static Throwable firstCause(List<Future<?>> all, Throwable fallback) {
        for (Future<?> f : all) {
            if (f.failed()) {
                return f.cause();
            }
        }
        return fallback;
    }

    private void failed(List<WriteOp> batch, Throwable cause) {
        if (PgErrors.isConnectionFailure(cause) || batch.size() == 1) {
            if (!PgErrors.isConnectionFailure(cause)) {
                LOG.error("write of {} failed: {}", batch.get(0).key, PgErrors.describe(cause));
            } else {
                LOG.warn("write batch of {} failed, database unavailable: {}", batch.size(), PgErrors.describe(cause));
            }
            StoreException error = PgErrors.toStoreException(cause);
            batch.forEach(op -> op.promise.tryFail(error));
            return;
        }
        // An SQL error aborted the whole transaction: retry each op alone so only the bad one fails.
        LOG.warn("write batch of {} failed ({}); retrying its writes one by one", batch.size(), PgErrors.describe(cause));
        isolated.addAll(batch);
    }
}
