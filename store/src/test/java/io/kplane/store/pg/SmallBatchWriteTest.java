package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writer's small-batch path ({@code kplane_apply_writes}, one call per batch) against its
 * large-batch path ({@code APPLY_ROUND}, one statement per round): each scenario queues exactly the
 * same batch on a store that takes the small path and on one that never does (each on its own
 * database), and both must give the same answers, revisions and event-log rows. A batch's content is
 * made exact by holding the revision row lock on another connection ({@link Gate}): the writer's batch
 * in flight waits for it, and every write submitted meanwhile queues into the next batch.
 */
class SmallBatchWriteTest {
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        await(vertx.close());
    }

    /** A store on a fresh database; limit 0 means every batch takes APPLY_ROUND. */
    private record Subject(PgConnectOptions db, PgResourceStore store) implements AutoCloseable {
        static Subject open(int smallBatchLimit) {
            PgConnectOptions db = TestPostgres.get().newDatabase();
            return new Subject(
                    db,
                    await(PgResourceStore.open(
                            vertx, StoreTestSupport.fastConfig(db).withSmallBatchLimit(smallBatchLimit))));
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /**
     * Holds the revision row lock on its own connection (the writer's next lock waits), optionally
     * also a row lock on one object (a write to it waits there, inside its statement).
     */
    private static final class Gate {
        private final PgConnection conn;

        Gate(PgConnectOptions db, String lockSql) {
            conn = await(PgConnection.connect(vertx, db));
            await(conn.query("BEGIN").execute());
            await(conn.query(lockSql).execute());
        }

        static Gate revision(PgConnectOptions db) {
            return new Gate(db, Statements.LOCK_REVISION);
        }

        static Gate object(PgConnectOptions db, ResourceKey key) {
            return new Gate(
                    db,
                    "SELECT 1 FROM objects WHERE resource = '" + key.resource() + "' AND namespace = '"
                            + key.namespace() + "' AND name = '" + key.name() + "' FOR UPDATE");
        }

        void open() {
            await(conn.query("COMMIT").execute());
            await(conn.close());
        }
    }

    /** The query text of the writer's session that waits for a lock, once there is one. */
    private static String waitingStatement(PgConnectOptions db) {
        PgConnection conn = await(PgConnection.connect(vertx, db));
        try {
            List<String> waiting = new ArrayList<>();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        waiting.clear();
                        for (Row row :
                                await(conn.query("SELECT query FROM pg_stat_activity WHERE datname = current_database()"
                                                + " AND wait_event_type = 'Lock'")
                                        .execute())) {
                            waiting.add(row.getString(0));
                        }
                        return !waiting.isEmpty();
                    });
            return waiting.get(0);
        } finally {
            await(conn.close());
        }
    }

    /**
     * Runs {@code batch} as exactly one writer batch: a first write is held at the revision lock, the
     * batch's writes queue behind it, then the lock is released.
     */
    private static <T> T asOneBatch(Subject s, Supplier<T> batch) {
        Gate gate = Gate.revision(s.db());
        Future<StoredObject> plug = s.store().create(podKey("plug", "p" + System.nanoTime()), pod("plug", "p", "x"));
        waitingStatement(s.db());
        T submitted = batch.get();
        gate.open();
        await(plug);
        return submitted;
    }

    /** Each write's outcome: its revision relative to {@code base}, or the failure's class. */
    private static List<String> outcomes(List<Future<StoredObject>> writes, long base) {
        List<String> result = new ArrayList<>();
        for (Future<StoredObject> w : writes) {
            try {
                result.add("+" + (await(w).revision() - base));
            } catch (RuntimeException e) {
                result.add(e.getClass().getSimpleName());
            }
        }
        return result;
    }

    private static ResourceKey nsKey(String name) {
        return FencedCreateTest.nsKey(name);
    }

    private static ObjectNode namespace(String name, boolean deleting) {
        return FencedCreateTest.namespace(name, deleting);
    }

    /** What one scenario produced: the outcomes, and the event log after the set-up. */
    private record Result(List<String> outcomes, List<String> log) {}

    /**
     * Creates, updates and deletes of several keys in one batch, with failed preconditions
     * (AlreadyExists, NotFound, Conflict) between passing writes and a key written twice: the passing
     * writes take consecutive revisions in submission order, the failed ones take none.
     */
    private static Result mixedBatch(Subject s) {
        PgResourceStore store = s.store();
        StoredObject b = await(store.create(podKey("m", "b"), pod("m", "b", "Pending")));
        await(store.create(podKey("m", "c"), pod("m", "c", "Pending")));
        StoredObject d = await(store.create(podKey("m", "d"), pod("m", "d", "Pending")));
        await(store.create(podKey("m", "e"), pod("m", "e", "Pending")));
        long base = await(store.currentRevision()) + 1; // the plug takes base
        List<Future<StoredObject>> writes = asOneBatch(
                s,
                () -> List.of(
                        store.create(podKey("m", "a"), pod("m", "a", "Pending")),
                        store.update(podKey("m", "b"), pod("m", "b", "Running"), b.revision()),
                        store.update(podKey("m", "d"), pod("m", "d", "Running"), d.revision() - 1),
                        store.delete(podKey("m", "c"), 0),
                        store.create(podKey("m", "e"), pod("m", "e", "Pending")),
                        store.delete(podKey("m", "nothing"), 0),
                        store.update(podKey("m", "a"), pod("m", "a", "Running"), 0),
                        store.delete(podKey("m", "a"), 0),
                        store.create(podKey("m", "a"), pod("m", "a", "Again"))));
        List<String> outcomes = outcomes(writes, base); // waits for the batch
        return new Result(outcomes, StoreTestSupport.eventLog(vertx, s.db(), "pods", base));
    }

    @Test
    void mixedBatchWithFailedPreconditionsGivesTheSameResultOnBothPaths() {
        Result small;
        Result rounds;
        try (Subject s = Subject.open(16)) {
            small = mixedBatch(s);
            assertThat(await(s.store().get(podKey("m", "a")))
                            .object()
                            .at("/status/phase")
                            .asText())
                    .isEqualTo("Again");
            assertThat(await(s.store().get(podKey("m", "b")))
                            .object()
                            .at("/status/phase")
                            .asText())
                    .isEqualTo("Running");
        }
        try (Subject s = Subject.open(0)) {
            rounds = mixedBatch(s);
        }
        assertThat(small.outcomes())
                .containsExactly("+1", "+2", "Conflict", "+3", "AlreadyExists", "NotFound", "+4", "+5", "+6");
        assertThat(small.log()).containsExactly("6 A m/a", "7 M m/b", "8 D m/c", "9 M m/a", "10 D m/a", "11 A m/a");
        assertThat(rounds).isEqualTo(small);
    }

    /**
     * Fenced creates in one batch with a write that marks their parent as being deleted: the create
     * queued before the mark commits below it, the one after is refused, as are creates in a parent
     * already being deleted or missing (the parent's state before AlreadyExists).
     */
    private static Result fencedBatch(Subject s) {
        PgResourceStore store = s.store();
        StoredObject live = await(store.create(nsKey("live"), namespace("live", false)));
        await(store.create(nsKey("gone"), namespace("gone", true)));
        await(store.create(podKey("gone", "x"), pod("gone", "x", "Pending")));
        long base = await(store.currentRevision()) + 1;
        List<Future<StoredObject>> writes = asOneBatch(
                s,
                () -> List.of(
                        store.create(podKey("live", "before"), pod("live", "before", "Pending"), nsKey("live")),
                        store.update(nsKey("live"), namespace("live", true), live.revision()),
                        store.create(podKey("live", "after"), pod("live", "after", "Pending"), nsKey("live")),
                        store.create(podKey("gone", "x"), pod("gone", "x", "Pending"), nsKey("gone")),
                        store.create(podKey("missing", "y"), pod("missing", "y", "Pending"), nsKey("missing")),
                        store.create(podKey("free", "z"), pod("free", "z", "Pending"))));
        List<String> outcomes = outcomes(writes, base); // waits for the batch
        List<String> log = new ArrayList<>(StoreTestSupport.eventLog(vertx, s.db(), "pods", base));
        log.addAll(StoreTestSupport.eventLog(vertx, s.db(), "namespaces", base));
        return new Result(outcomes, log);
    }

    @Test
    void fencedCreateWhoseParentIsBeingDeletedIsRefusedOnBothPaths() {
        Result small;
        Result rounds;
        try (Subject s = Subject.open(16)) {
            small = fencedBatch(s);
        }
        try (Subject s = Subject.open(0)) {
            rounds = fencedBatch(s);
        }
        assertThat(small.outcomes())
                .containsExactly("+1", "+2", "ParentTerminating", "ParentTerminating", "ParentMissing", "+3");
        assertThat(small.log()).containsExactly("5 A live/before", "7 A free/z", "6 M /live");
        assertThat(rounds).isEqualTo(small);
    }

    /**
     * The threshold, both sides: a batch of exactly the limit is one call of the function, one more
     * write makes it APPLY_ROUND. The batch is held inside its statement by a row lock on an object it
     * updates, so the statement the writer's session runs can be read from pg_stat_activity.
     */
    @Test
    void batchOfTheLimitTakesTheFunctionOneMoreTakesApplyRound() {
        try (Subject s = Subject.open(3)) {
            assertThat(batchStatement(s, 3)).contains("kplane_apply_writes");
            assertThat(batchStatement(s, 4)).contains("WITH ops AS");
        }
    }

    /** Runs a batch of {@code size} writes (an update of a locked object first) and returns the statement it waited in. */
    private static String batchStatement(Subject s, int size) {
        PgResourceStore store = s.store();
        String ns = "t" + size;
        StoredObject held = await(store.create(podKey(ns, "held"), pod(ns, "held", "Pending")));
        long base = await(store.currentRevision()) + 1;
        Gate row = Gate.object(s.db(), podKey(ns, "held"));
        Gate revision = Gate.revision(s.db());
        Future<StoredObject> plug = store.create(podKey("plug", ns), pod("plug", ns, "x"));
        waitingStatement(s.db());
        List<Future<StoredObject>> writes = new ArrayList<>();
        writes.add(store.update(podKey(ns, "held"), pod(ns, "held", "Running"), held.revision()));
        for (int i = 1; i < size; i++) {
            writes.add(store.create(podKey(ns, "p" + i), pod(ns, "p" + i, "Pending")));
        }
        revision.open();
        await(plug);
        String statement = waitingStatement(s.db());
        row.open();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            expected.add("+" + i);
        }
        assertThat(outcomes(writes, base)).isEqualTo(expected);
        return statement;
    }
}
