package io.kplane.store.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The physical limit the store is compared with: single-row INSERTs, each its own autocommit
 * transaction (one WAL flush per row), issued back to back on {@code concurrency} separate
 * connections. Reusable by other benchmarks (e.g. the API server's) to print their ratios.
 */
public final class RawInsertBenchmark {
    private RawInsertBenchmark() {}

    public record Result(int concurrency, long operations, Duration elapsed) {
        public double perSecond() {
            return operations * 1e9 / elapsed.toNanos();
        }
    }

    /** Blocks for about {@code duration}; do not call on an event loop. */
    public static Result measure(Vertx vertx, PgConnectOptions db, int concurrency, Duration duration, String payload) {
        List<SqlConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < concurrency; i++) {
                connections.add(block(PgConnection.connect(
                        vertx,
                        new PgConnectOptions(db)
                                .setCachePreparedStatements(true)
                                .addProperty("client_min_messages", "warning"))));
            }
            block(connections
                    .get(0)
                    .query("CREATE TABLE IF NOT EXISTS bench_raw_insert (id bigserial PRIMARY KEY, "
                            + "name text NOT NULL, data text NOT NULL)")
                    .execute());
            AtomicLong count = new AtomicLong();
            long start = System.nanoTime();
            long deadline = start + duration.toNanos();
            List<Future<Void>> loops = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                Promise<Void> done = Promise.promise();
                insertLoop(connections.get(i), "c" + i, payload, deadline, count, done);
                loops.add(done.future());
            }
            block(Future.all(loops));
            return new Result(concurrency, count.get(), Duration.ofNanos(System.nanoTime() - start));
        } finally {
            connections.forEach(SqlConnection::close);
        }
    }

    private static void insertLoop(
            SqlConnection conn, String prefix, String payload, long deadline, AtomicLong count, Promise<Void> done) {
        if (System.nanoTime() >= deadline) {
            done.complete();
            return;
        }
        conn.preparedQuery("INSERT INTO bench_raw_insert (name, data) VALUES ($1, $2)")
                .execute(Tuple.of(prefix + "-" + count.get(), payload))
                .onSuccess(r -> {
                    count.incrementAndGet();
                    insertLoop(conn, prefix, payload, deadline, count, done);
                })
                .onFailure(done::fail);
    }

    static <T> T block(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException("benchmark step failed: " + e, e);
        }
    }
}
