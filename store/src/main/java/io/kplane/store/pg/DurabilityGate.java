package io.kplane.store.pg;

import io.kplane.store.StoreException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Nothing this store reveals (a write's answer, a GET, a list, an event, a bookmark) is ahead of
 * what PostgreSQL has flushed to its WAL. The writer commits a batch with {@code synchronous_commit
 * = off} when more writes wait behind it ({@link GroupCommitWriter}): PostgreSQL then releases the
 * revision row lock as soon as the commit record is in the WAL buffers, before the flush, so the
 * next batch's rows run during this one's flush. Such a commit is visible to every other session at
 * once but may still be lost in a crash, so every path that could show it waits here first.
 *
 * <p><b>The watermark is a WAL position, not a revision,</b> so it also covers the writes of other
 * store instances on the same database, whose durability this instance cannot know otherwise. Two
 * facts of PostgreSQL carry it: (1) the WAL is flushed in order, so once it is flushed up to
 * position P every commit record before P is durable, whatever its session's setting; (2) a
 * transaction becomes visible to other snapshots only after its commit record was inserted. So:
 * <ul>
 *   <li>a <b>read</b> pipelines {@link #PROBE} on its connection after its statement (after its
 *       snapshot): the WAL insert position it returns is past the commit record of every write the
 *       read could see. If the flush position it returns is there too (the usual case without
 *       write load), the read is answered at once; otherwise it waits for {@link #awaitDurable};</li>
 *   <li>a <b>barrier</b> is a tiny transaction with {@code synchronous_commit = on} on this gate's
 *       own connection ({@link #BARRIER}): it takes a transaction id, so its commit writes a record
 *       and waits for the WAL to be flushed up to it, i.e. past everything committed before the
 *       barrier's statement was sent. One barrier serves every waiter registered before it was sent:
 *       reads needing a position it reached, and the writer's batches ({@link #flushCommitted}).</li>
 * </ul>
 * A crash between an asynchronous commit and its flush loses that commit (and every later one: the
 * WAL is replayed as a prefix), and no client has seen any of them: their writers got no answer
 * (their barrier failed: Unavailable, "may or may not have been applied"), and no read or event
 * passed the gate. After the restart the revision row holds the last durable revision, so the lost
 * revisions are given again to new writes, which no client can confuse with what it saw.
 */
final class DurabilityGate {
    /** The WAL insert and flush positions, in bytes (a read's probe, pipelined after it). */
    static final String PROBE = "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint,"
            + " (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::bigint";

    /**
     * One barrier: the transaction id makes its autocommit write a commit record and wait for the
     * flush up to it; the insert position read before that record is reached by the flush.
     */
    static final String BARRIER = "SELECT txid_current(), (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint";

    private final Vertx vertx;
    private final Context context;
    private final Supplier<Pool> poolFactory;
    private final long timeoutMs;
    private Pool pool;

    /** The highest WAL position known flushed (any thread reads it: the fast path of a read). */
    private volatile long flushed;

    // on the gate's context only
    private final List<Waiter> waiting = new ArrayList<>();
    private long barriersSent;
    private boolean barrierInFlight;
    private boolean closed;

    /**
     * For tests: while set and not complete, no barrier is sent and no flush position is learnt, as
     * if the disk had not flushed anything since: what a crash before the flush would lose.
     */
    private volatile Future<Void> hold;

    private final AtomicLong barrierCount = new AtomicLong();
    private final AtomicLong readWaits = new AtomicLong();

    /**
     * A caller waiting for the WAL to be flushed up to {@code position}, or (position
     * {@link Long#MAX_VALUE}) for barrier number {@code barrier} to complete.
     */
    private record Waiter(long position, long barrier, Promise<Void> promise) {}

    /**
     * @param poolFactory one connection, its sessions with {@code synchronous_commit = on}
     * @param timeoutMs a barrier not committed within this fails its waiters (Unavailable), and
     *     its connection is replaced, as the writer does with a batch
     */
    DurabilityGate(Vertx vertx, Context context, Supplier<Pool> poolFactory, long timeoutMs) {
        this.vertx = vertx;
        this.context = context;
        this.poolFactory = poolFactory;
        this.timeoutMs = timeoutMs;
    }

    /** Barriers run so far, and reads that had to wait for one (for benchmarks and tests). */
    long barriers() {
        return barrierCount.get();
    }

    long readWaits() {
        return readWaits.get();
    }

    /**
     * Completes once the WAL is flushed past every commit that returned before this call (a barrier
     * sent after it has committed). The writer's batches that committed asynchronously wait here.
     */
    Future<Void> flushCommitted() {
        Promise<Void> promise = callerPromise();
        context.runOnContext(v -> enqueue(new Waiter(Long.MAX_VALUE, barriersSent + 1, promise)));
        return promise.future();
    }

    /** Completes once the WAL is flushed up to {@code position}: at once if that is known already. */
    Future<Void> awaitDurable(long position) {
        if (position <= flushed && hold == null) {
            return Future.succeededFuture();
        }
        readWaits.incrementAndGet();
        Promise<Void> promise = callerPromise();
        context.runOnContext(v -> enqueue(new Waiter(position, Long.MAX_VALUE, promise)));
        return promise.future();
    }

    /** A read's result and the WAL insert position its probe saw (past everything it could see). */
    record Probed<T>(T result, long position) {}

    /**
     * Sends {@link #PROBE} on {@code conn} right after the statement whose result is {@code read}
     * (pipelined: no extra round trip); completes with the result and the position once both are
     * in. Call it just after sending the read, on the same connection; then, once the connection is
     * given back (a wait must not hold a pooled connection), {@link #reveal} before answering.
     */
    <T> Future<Probed<T>> probe(SqlConnection conn, Future<T> read) {
        Future<RowSet<Row>> probe = conn.preparedQuery(PROBE).execute();
        return read.compose(result -> probe.map(rows -> {
            Row row = rows.iterator().next();
            raise(row.getLong(1));
            return new Probed<>(result, row.getLong(0));
        }));
    }

    /** The probed read's result, once everything it could have seen is durable. */
    <T> Future<T> reveal(Probed<T> read) {
        return awaitDurable(read.position()).map(read.result());
    }

    /** For tests: holds the gate shut (see {@link #hold}) until {@code release} completes. */
    void holdUntil(Future<Void> release) {
        hold = release;
    }

    void close() {
        context.runOnContext(v -> {
            closed = true;
            failAll(new StoreException.Unavailable("store is closed", null));
            if (pool != null) {
                pool.close();
            }
        });
    }

    private Promise<Void> callerPromise() {
        // completed on the gate's context; its callbacks run on the caller's (the writer's, a request's)
        return ((ContextInternal) vertx.getOrCreateContext()).promise();
    }

    private void raise(long position) {
        if (hold != null) {
            return;
        }
        // only ever raised; a stale lower value is harmless (it makes a caller wait for a barrier)
        synchronized (this) {
            if (position > flushed) {
                flushed = position;
            }
        }
    }

    private void enqueue(Waiter waiter) {
        if (closed) {
            waiter.promise.tryFail(new StoreException.Unavailable("store is closed", null));
            return;
        }
        if (waiter.position <= flushed && hold == null) {
            waiter.promise.tryComplete();
            return;
        }
        waiting.add(waiter);
        sendBarrier();
    }

    private void sendBarrier() {
        if (barrierInFlight || waiting.isEmpty() || closed) {
            return;
        }
        Future<Void> held = hold;
        if (held != null) {
            held.onComplete(v -> context.runOnContext(x -> {
                hold = null;
                sendBarrier();
            }));
            return;
        }
        if (pool == null) {
            pool = poolFactory.get();
        }
        barrierInFlight = true;
        long number = ++barriersSent;
        barrierCount.incrementAndGet();
        Pool barrierPool = pool;
        barrierPool
                .query(BARRIER)
                .execute()
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .onComplete(ar -> context.runOnContext(v -> {
                    barrierInFlight = false;
                    if (ar.succeeded()) {
                        raise(ar.result().iterator().next().getLong(1));
                        settle(number);
                    } else {
                        failAll(new StoreException.Unavailable(
                                "the database did not confirm the write durable: "
                                        + PgErrors.describe(ar.cause())
                                        + " (it may or may not have been applied)",
                                null));
                        if (pool == barrierPool) {
                            pool = null; // a fresh connection for the next barrier
                        }
                        barrierPool.close();
                    }
                    sendBarrier();
                }));
    }

    private void settle(long completedBarrier) {
        long position = flushed;
        for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.barrier <= completedBarrier || w.position <= position) {
                it.remove();
                w.promise.tryComplete();
            }
        }
    }

    private void failAll(StoreException error) {
        List<Waiter> failed = new ArrayList<>(waiting);
        waiting.clear();
        failed.forEach(w -> w.promise.tryFail(error));
    }
}
