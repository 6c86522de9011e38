package io.kplane.store.pg;

import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer loop of a store instance. It takes every queued write (up to a bound) and commits
 * them in ONE transaction: lock the revision row, one statement for all the batch's writes (more
 * only when a key repeats, see {@link #rounds}), NOTIFY, COMMIT, pipelined in one round trip. A
 * small batch (at most {@code smallBatchLimit} writes, the usual case at low load, where each
 * write's latency is on a user's critical path) is instead ONE autocommit call of a database
 * function doing the same with plain per-write statements, see {@link #applySmallBatch}.
 * Holding the revision row lock from the first statement to COMMIT serialises revision assignment
 * and commit order across all store instances, so revisions become visible strictly in order; the
 * batching wins the throughput back (one WAL flush and one executor run per batch, not per write).
 *
 * <p>One batch at a time: writes that arrive while a batch commits wait and form the next batch,
 * so batches grow with the load and the WAL flush is shared. (Sending the next batch while the
 * previous one flushes, on a second connection, was measured slower: it fragments the batches,
 * and each batch costs one flush, as they are serialised by the revision row lock anyway.)
 *
 * <p>All loop state is confined to the writer's Vert.x context; callers on any thread only enqueue.
 */
final class GroupCommitWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);

    /** Makes the writer's connection pool (one connection); a pool whose batch missed its deadline is replaced. */
    private final Supplier<Pool> poolFactory;

    private Pool pool;
    private final WriterLimits limits;
    /** Ops submitted and not yet taken into a batch: bounded by {@link WriterLimits#maxQueuedWrites()}. */
    private final AtomicInteger queued = new AtomicInteger();
    /** System.nanoTime() when the batch in flight started, 0 when none is (read by readiness checks). */
    private volatile long batchStartedNanos;
    /** Why the last batch failed for want of the database (null once one succeeded). */
    private volatile String lastOutage;
    /**
     * Why the last batch failed because PostgreSQL could not store it (disk full, read-only, I/O
     * error), null once a batch committed. Unlike a lost connection, the readiness probe cannot see
     * this fault (taking the revision lock writes nothing new), so only a commit clears it.
     */
    private volatile String storageFault;

    private final Context context;
    private final Clock clock;
    private final int maxBatchSize;
    /** Batches up to this size take {@link Statements#APPLY_WRITES}, larger ones {@link Statements#APPLY_ROUND}. */
    private final int smallBatchLimit;

    private final RecentObjects recentObjects;
    private final BatchListener listener;
    private final Queue<WriteOp> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Ops to run one per transaction after a batch failed with an SQL error (isolates the bad op). */
    private final ArrayDeque<WriteOp> isolated = new ArrayDeque<>();

    private boolean busy;
    private volatile boolean closed;

    // statistics (WriterStats): written on the writer's context only, read from any thread
    private final AtomicLong batchCount = new AtomicLong();
    private final AtomicLong writeCount = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();
    private final AtomicLongArray batchSizes = new AtomicLongArray(WriterStats.SIZE_BOUNDS.length + 1);

    /**
     * Told, in order and from the writer's context, about each batch: that it is about to be sent
     * (its NOTIFY may reach a LISTENer before its outcome reaches the writer) and how it settled.
     */
    interface BatchListener {
        /** The batch is about to be sent to the database. */
        void batchSent();

        /** The batch in flight settled: committed (its events, possibly none), or failed/timed out (null). */
        void batchSettled(CommittedBatch committed);

        /** A batch the writer had already settled as timed out committed after all. */
        void committedLate(CommittedBatch committed);
    }

    /**
     * What one committed transaction wrote: the revision before it (the locked counter's value) and
     * its events, which took the revisions after it in order (none if every precondition failed).
     */
    record CommittedBatch(long previousRevision, List<EventRows.LoggedEvent> events) {
        long lastRevision() {
            return events.isEmpty() ? previousRevision : events.get(events.size() - 1).revision;
        }
    }

    GroupCommitWriter(
            Supplier<Pool> poolFactory,
            WriterLimits limits,
            Context context,
            Clock clock,
            int maxBatchSize,
            int smallBatchLimit,
            RecentObjects recentObjects,
            BatchListener listener) {
        this.poolFactory = poolFactory;
        this.pool = poolFactory.get();
        this.limits = limits;
        this.context = context;
        this.clock = clock;
        this.maxBatchSize = maxBatchSize;
        this.smallBatchLimit = smallBatchLimit;
        this.recentObjects = recentObjects;
        this.listener = listener;
    }

    void submit(WriteOp op) {
        if (closed) {
            op.promise.tryFail(new StoreException.Unavailable("store is closed", null));
            return;
        }
        if (queued.incrementAndGet() > limits.maxQueuedWrites()) {
            // Bounded queueing: past this, waiting would only add latency until clients time out.
            queued.decrementAndGet();
            op.promise.tryFail(new StoreException.Overloaded(
                    "too many writes waiting for the database (more than " + limits.maxQueuedWrites() + ")",
                    limits.retryAfterSeconds()));
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

    /** What the writer has done so far (a snapshot; see {@link WriterStats}). */
    WriterStats stats() {
        long[] sizes = new long[batchSizes.length()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = batchSizes.get(i);
        }
        return new WriterStats(batchCount.get(), writeCount.get(), busyNanos.get(), sizes);
    }

    void close() {
        closed = true;
        context.runOnContext(v -> {
            WriteOp op;
            while ((op = queue.poll()) != null) {
                queued.decrementAndGet();
                op.promise.tryFail(new StoreException.Unavailable("store is closed", null));
            }
            pool.close();
        });
    }

    /**
     * Succeeds when a write could be committed now: no batch is stuck past its deadline, the queue has
     * room, and, if the last batch failed for want of the database, a probe can take the revision lock.
     */
    Future<Void> ready() {
        long started = batchStartedNanos;
        long deadlineNanos = limits.batchDeadline().toNanos();
        if (started != 0 && System.nanoTime() - started > deadlineNanos) {
            return Future.failedFuture("writer: a batch has been in flight for more than "
                    + limits.batchDeadline().toMillis() + " ms");
        }
        if (queued.get() >= limits.maxQueuedWrites()) {
            return Future.failedFuture("writer: " + queued.get() + " writes waiting (the limit)");
        }
        String fault = storageFault;
        if (fault != null) {
            return Future.failedFuture("writer: the last write failed: " + fault);
        }
        if (lastOutage == null) {
            return Future.succeededFuture();
        }
        Promise<Void> result = Promise.promise();
        context.runOnContext(v -> probe(result));
        return result.future();
    }

    /** BEGIN, take the revision lock, ROLLBACK: what every batch needs first, bounded by the deadline. */
    private void probe(Promise<Void> result) {
        if (busy) {
            result.fail("writer: " + lastOutage);
            return;
        }
        pool.getConnection()
                .compose(conn -> {
                    Future<?> begin = conn.query("BEGIN").execute();
                    Future<?> lock = conn.query(Statements.LOCK_REVISION).execute();
                    Future<?> rollback = conn.query("ROLLBACK").execute();
                    return Future.all(begin, lock, rollback).eventually(conn::close);
                })
                .timeout(limits.batchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        lastOutage = null;
                        result.complete();
                    } else {
                        result.fail("writer: " + lastOutage + "; probe: " + PgErrors.describe(ar.cause()));
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
                queued.decrementAndGet();
                batch.add(op);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        busy = true;
        long started = System.nanoTime();
        batchStartedNanos = started;
        batchCount.incrementAndGet();
        writeCount.addAndGet(batch.size());
        batchSizes.incrementAndGet(WriterStats.bucket(batch.size()));
        Pool batchPool = pool;
        boolean[] settled = {false};
        long deadline = context.owner().setTimer(limits.batchDeadline().toMillis(), id -> {
            if (settled[0]) {
                return;
            }
            settled[0] = true;
            deadlineExceeded(batch, batchPool);
            busyNanos.addAndGet(System.nanoTime() - started);
            busy = false;
            batchStartedNanos = 0;
            listener.batchSettled(null);
            drain();
        });
        listener.batchSent();
        // the one place a commit clears the faults (not again when the batch settles): before the
        // callers hear of their writes, since one that saw its write commit and then asks for
        // readiness must not be told of a fault this commit has just disproved; every successful
        // commit path runs it, and a batch already settled by its deadline leaves them as they are
        Runnable onCommitted = () -> {
            if (!settled[0]) {
                lastOutage = null;
                storageFault = null;
            }
        };
        commit(batch, batchPool, onCommitted).onComplete(ar -> {
            if (settled[0]) {
                lateOutcome(batch, ar);
                return;
            }
            settled[0] = true;
            context.owner().cancelTimer(deadline);
            busyNanos.addAndGet(System.nanoTime() - started);
            busy = false;
            batchStartedNanos = 0;
            if (ar.succeeded()) {
                // lastOutage and storageFault were cleared by onCommitted, as the rows arrived
                listener.batchSettled(ar.result());
            } else {
                listener.batchSettled(null);
                failed(batch, ar.cause());
            }
            drain();
        });
    }

    /**
     * The batch was not committed in time (the server does not answer: a frozen network, a hung
     * server). Its writes fail with Unavailable (they may or may not have been applied: never reported
     * as done), and its connection is closed and replaced, so the next batch does not queue behind it.
     * If the server still holds that session's transaction, its idle-in-transaction timeout and TCP
     * keepalive end it and release the revision lock.
     */
    private void deadlineExceeded(List<WriteOp> batch, Pool batchPool) {
        long ms = limits.batchDeadline().toMillis();
        LOG.warn(
                "write batch of {} not committed within {} ms; failing it and replacing the writer's connection",
                batch.size(),
                ms);
        lastOutage = "a write batch was not committed within " + ms + " ms";
        StoreException error = new StoreException.Unavailable(
                "the database did not commit the write within " + ms + " ms (it may or may not have been applied)",
                null);
        batch.forEach(op -> op.promise.tryFail(error));
        if (pool == batchPool) {
            pool = poolFactory.get();
        }
        batchPool.close();
    }

    /** A batch completed after its deadline: its callers were answered; committed events still go to watchers. */
    private void lateOutcome(List<WriteOp> batch, io.vertx.core.AsyncResult<CommittedBatch> ar) {
        if (ar.succeeded() && !ar.result().events().isEmpty()) {
            LOG.warn("write batch of {} committed after its deadline (its callers were told 503)", batch.size());
            listener.committedLate(ar.result());
        }
    }

    /**
     * Runs the batch in one transaction and completes each op's future; returns what it committed.
     * One round trip per batch either way (one function call, or BEGIN, the lock, one statement per
     * round, NOTIFY and COMMIT pipelined). If any statement fails, nothing of the batch is applied
     * (the call's own transaction aborts; PostgreSQL turns the COMMIT of an aborted transaction into
     * a ROLLBACK) and the failure is reported from that statement's future.
     */
    private Future<CommittedBatch> commit(List<WriteOp> batch, Pool batchPool, Runnable onCommitted) {
        long createdMs = clock.millis();
        return batchPool.getConnection().compose(conn -> runStatements(conn, batch, createdMs, onCommitted)
                .eventually(conn::close));
    }

    private Future<CommittedBatch> runStatements(
            SqlConnection conn, List<WriteOp> batch, long createdMs, Runnable onCommitted) {
        return batch.size() <= smallBatchLimit
                ? applySmallBatch(conn, batch, createdMs, onCommitted)
                : applyRounds(conn, batch, createdMs, onCommitted);
    }

    /**
     * A small batch: ONE autocommit call of the database function {@code kplane_apply_writes}
     * ({@link Statements#APPLY_WRITES}), which locks the revision row, applies the writes one after
     * another with plain per-kind statements (plans cached by PL/pgSQL), raises the counter, NOTIFYs,
     * and commits as the statement ends. Same result rows as {@link Statements#APPLY_ROUND}, plus the
     * locked revision. Why not {@code APPLY_ROUND} here: its ten data-modifying CTEs cost ~2.5 ms of
     * server CPU per execution whatever the batch size, while the function costs a fraction of that
     * per write (figures: docs/storage.md, "Small batches"). The whole batch goes in one call, not
     * one per round: applying the writes in order, each seeing its predecessors, is exactly what
     * {@link #rounds} emulates.
     */
    private Future<CommittedBatch> applySmallBatch(
            SqlConnection conn, List<WriteOp> batch, long createdMs, Runnable onCommitted) {
        return conn.preparedQuery(Statements.APPLY_WRITES)
                .execute(params(batch, createdMs))
                .map(rowSet -> {
                    onCommitted.run();
                    RowIterator<Row> rows = rowSet.iterator();
                    List<EventRows.LoggedEvent> events = new ArrayList<>(batch.size());
                    long previous = -1;
                    for (WriteOp op : batch) {
                        Row row = rows.next();
                        previous = row.getLong(4);
                        EventRows.LoggedEvent event = op.complete(row, recentObjects);
                        if (event != null) {
                            events.add(event);
                        }
                    }
                    return new CommittedBatch(previous, events);
                });
    }

    /**
     * A larger batch, in one transaction: BEGIN, the lock, one {@link Statements#APPLY_ROUND} per
     * round, NOTIFY, COMMIT, pipelined (one round trip). Its fixed cost per execution is paid once
     * for many writes.
     */
    private Future<CommittedBatch> applyRounds(
            SqlConnection conn, List<WriteOp> batch, long createdMs, Runnable onCommitted) {
        List<List<WriteOp>> rounds = rounds(batch);
        List<Future<?>> all = new ArrayList<>(rounds.size() + 4);
        all.add(conn.query("BEGIN").execute());
        Future<RowSet<Row>> lock = conn.query(Statements.LOCK_REVISION).execute();
        all.add(lock);
        List<Future<RowSet<Row>>> results = new ArrayList<>(rounds.size());
        for (List<WriteOp> round : rounds) {
            Future<RowSet<Row>> result =
                    conn.preparedQuery(Statements.APPLY_ROUND).execute(params(round, createdMs));
            results.add(result);
            all.add(result);
        }
        all.add(conn.query(Statements.NOTIFY).execute());
        all.add(conn.query("COMMIT").execute());
        return Future.join(all).transform(ar -> {
            Throwable failure = firstCause(all, ar.cause());
            if (failure != null) {
                return Future.failedFuture(failure);
            }
            onCommitted.run();
            long previous = lock.result().iterator().next().getLong(0);
            // in revision order: rounds apply in order, each taking the revisions after the previous
            // one's, and within a round the applied writes take them in submission order
            List<EventRows.LoggedEvent> events = new ArrayList<>(batch.size());
            for (int i = 0; i < rounds.size(); i++) {
                List<WriteOp> round = rounds.get(i);
                RowIterator<Row> rows = results.get(i).result().iterator();
                for (WriteOp op : round) {
                    EventRows.LoggedEvent event = op.complete(rows.next(), recentObjects);
                    if (event != null) {
                        events.add(event);
                    }
                }
            }
            return Future.succeededFuture(new CommittedBatch(previous, events));
        });
    }

    /**
     * Splits a batch, in order, into rounds in which each key occurs at most once: a round is one
     * statement whose writes all check their preconditions against the state before it, so a second
     * write to the same key must come in a later statement that sees the first. Likewise a fenced
     * create whose parent was written earlier in the round (a namespace marked Terminating, then a
     * create in it) starts a new round, so its fence sees that write.
     */
    static List<List<WriteOp>> rounds(List<WriteOp> batch) {
        List<List<WriteOp>> rounds = new ArrayList<>();
        List<WriteOp> current = new ArrayList<>();
        Set<ResourceKey> keys = new HashSet<>();
        for (WriteOp op : batch) {
            boolean parentWritten = op.parent != null && keys.contains(op.parent);
            if (parentWritten || !keys.add(op.key)) {
                rounds.add(current);
                current = new ArrayList<>();
                keys.clear();
                keys.add(op.key);
            }
            current.add(op);
        }
        rounds.add(current);
        return rounds;
    }

    private static Tuple params(List<WriteOp> round, long createdMs) {
        int n = round.size();
        String[] kinds = new String[n];
        String[] resources = new String[n];
        String[] namespaces = new String[n];
        String[] names = new String[n];
        String[] data = new String[n];
        Long[] expected = new Long[n];
        String[] parentResources = new String[n];
        String[] parentNamespaces = new String[n];
        String[] parentNames = new String[n];
        for (int i = 0; i < n; i++) {
            WriteOp op = round.get(i);
            kinds[i] = op.kindCode();
            resources[i] = op.key.resource();
            namespaces[i] = op.key.namespace();
            names[i] = op.key.name();
            data[i] = op.data;
            expected[i] = op.expectedRevision;
            if (op.parent != null) {
                parentResources[i] = op.parent.resource();
                parentNamespaces[i] = op.parent.namespace();
                parentNames[i] = op.parent.name();
            }
        }
        return Tuple.of(kinds, resources, namespaces, names, data, expected)
                .addLong(createdMs)
                .addValue(parentResources)
                .addValue(parentNamespaces)
                .addValue(parentNames);
    }

    /** The first statement failure (the cause; later statements only report the aborted transaction). */
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
            StoreException error = PgErrors.toStoreException(cause);
            if (PgErrors.isStorageFault(cause)) {
                storageFault = error.getMessage();
            }
            if (PgErrors.isConnectionFailure(cause)) {
                lastOutage = PgErrors.describe(cause);
                LOG.warn("write batch of {} failed, database unavailable: {}", batch.size(), PgErrors.describe(cause));
            } else if (error instanceof StoreException.BadRequest) {
                LOG.warn("write of {} rejected by the database: {}", batch.get(0).key, PgErrors.describe(cause));
            } else {
                LOG.error("write of {} failed: {}", batch.get(0).key, PgErrors.describe(cause));
            }
            batch.forEach(op -> op.promise.tryFail(error));
            return;
        }
        // An SQL error aborted the whole transaction: retry each op alone so only the bad one fails.
        LOG.warn(
                "write batch of {} failed ({}); retrying its writes one by one",
                batch.size(),
                PgErrors.describe(cause));
        isolated.addAll(batch);
    }
}
