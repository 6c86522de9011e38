package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.eventLog;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.ListRequest;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.pg.StoreTestSupport.RecordingListener;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer commits batches asynchronously when writes wait behind them and answers them only once
 * a durability barrier has flushed them (GroupCommitWriter, DurabilityGate). Here the gate is held
 * shut, as if the disk had not flushed anything yet, while batches commit asynchronously: no write's
 * answer, no read (get, list, current revision, on this instance or a second one), no watch event
 * and no bookmark may reveal them; released, everything appears in commit order without a gap; and if
 * PostgreSQL goes down instead, their writers are told Unavailable and the store continues from the
 * revision the database really holds.
 */
class OverlappedCommitTest {
    private static final int QUEUED = 60;

    private final Vertx vertx = Vertx.vertx();
    private final List<PgResourceStore> stores = new ArrayList<>();
    private Pool raw;
    private Pool locker;

    @AfterEach
    void close() {
        TestPostgres.get().start(); // in case the test failed mid-outage
        stores.forEach(PgResourceStore::close);
        if (raw != null) {
            raw.close();
            locker.close();
        }
        await(vertx.close());
    }

    private PgResourceStore open(PgConnectOptions db) {
        // small batches, so that the queued writes make several batches, each committed asynchronously
        PgResourceStore store = await(
                PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db).withMaxBatchSize(8)));
        stores.add(store);
        return store;
    }

    /** What the held gate must hide, and the writes that were queued behind a lone first write. */
    private record Queued(long before, Future<StoredObject> first, List<Future<StoredObject>> queued) {}

    /**
     * Holds the revision row from a connection of the test's own, so that the writer's next batch
     * (the lone write "first", committed synchronously) waits for it; queues {@link #QUEUED} creates
     * behind it, releases the row, and waits until the database shows them all committed.
     */
    private Queued commitQueuedBehindALoneWrite(PgResourceStore a, Future<Void> gateRelease) {
        long before = revisionRow();
        SqlConnection lock = await(locker.getConnection());
        await(lock.query("BEGIN").execute());
        await(lock.query(Statements.LOCK_REVISION).execute());
        Future<StoredObject> first = a.create(podKey("q", "first"), pod("q", "first", "Pending"));
        await().atMost(Duration.ofSeconds(10)).until(() -> writerWaitsForTheLock() == 1);
        stores.forEach(s -> s.holdDurabilityUntil(gateRelease));
        List<Future<StoredObject>> queued = new ArrayList<>();
        for (int i = 0; i < QUEUED; i++) {
            queued.add(a.create(podKey("q", "p" + i), pod("q", "p" + i, "Pending")));
        }
        await(lock.query("ROLLBACK").execute());
        lock.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> revisionRow() == before + 1 + QUEUED);
        return new Queued(before, first, queued);
    }

    @Test
    void asynchronousCommitsAreRevealedOnlyOnceDurableAndInCommitOrder() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        raw = StoreTestSupport.oneConnectionPool(vertx, db);
        locker = StoreTestSupport.oneConnectionPool(vertx, db);
        PgResourceStore a = open(db);
        PgResourceStore b = open(db); // another instance on the same database
        RecordingListener watchA = new RecordingListener();
        RecordingListener watchB = new RecordingListener();
        a.watch("pods", null, 0, watchA);
        b.watch("pods", null, 0, watchB);
        await(a.create(podKey("q", "zero"), pod("q", "zero", "Pending")));

        Promise<Void> release = Promise.promise();
        Queued q = commitQueuedBehindALoneWrite(a, release.future());
        long first = q.before() + 1;
        // the lone write committed synchronously: durable, answered although the gate is shut
        assertThat(await(q.first()).revision()).isEqualTo(first);

        List<Future<?>> reads = List.of(
                a.get(podKey("q", "p0")),
                a.list(ListRequest.all("pods", "q")),
                a.currentRevision(),
                b.get(podKey("q", "p0")),
                b.list(ListRequest.all("pods", "q")),
                b.currentRevision());
        // every queued write is committed in the database; nothing may show it while the gate is shut
        await().during(Duration.ofMillis(800))
                .atMost(Duration.ofSeconds(3))
                .until(() -> q.queued().stream().noneMatch(Future::isComplete)
                        && reads.stream().noneMatch(Future::isComplete)
                        && watchA.events.stream().allMatch(e -> e.revision() <= first)
                        && watchB.events.stream().allMatch(e -> e.revision() <= first)
                        && watchA.progress <= first
                        && watchB.progress <= first);

        release.complete();
        List<Long> revisions = q.queued().stream().map(f -> await(f).revision()).toList();
        // answered in submission order = commit order, revisions consecutive after the lone write
        assertThat(revisions)
                .containsExactlyElementsOf(LongStream.rangeClosed(first + 1, first + QUEUED)
                        .boxed()
                        .toList());
        reads.forEach(StoreTestSupport::await);
        assertThat(await(a.currentRevision())).isEqualTo(first + QUEUED);
        assertThat(await(b.list(ListRequest.all("pods", "q"))).items()).hasSize(QUEUED + 2);
        List<String> log = eventLog(vertx, db, "pods", 0);
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        watchA.described().equals(log) && watchB.described().equals(log));
    }

    @Test
    void aCrashBeforeTheFlushIsSeenByNoClientAndTheStoreContinuesFromTheDatabase() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        raw = StoreTestSupport.oneConnectionPool(vertx, db);
        locker = StoreTestSupport.oneConnectionPool(vertx, db);
        PgResourceStore a = open(db);
        RecordingListener watch = new RecordingListener();
        a.watch("pods", null, 0, watch);
        await(a.create(podKey("q", "zero"), pod("q", "zero", "Pending")));

        Promise<Void> release = Promise.promise();
        Queued q = commitQueuedBehindALoneWrite(a, release.future());
        long first = q.before() + 1;
        assertThat(await(q.first()).revision()).isEqualTo(first);
        Future<StoredObject> read = a.get(podKey("q", "p0"));

        // the server goes down before the barrier: the queued writes were committed, never confirmed
        TestPostgres.get().stop();
        release.complete();
        for (Future<StoredObject> f : q.queued()) {
            assertThat(failure(f)).isInstanceOf(StoreException.Unavailable.class);
        }
        assertThat(failure(read)).isInstanceOf(StoreException.Unavailable.class);
        assertThat(watch.events.stream().allMatch(e -> e.revision() <= first)).isTrue();
        assertThat(watch.progress).isLessThanOrEqualTo(first);

        TestPostgres.get().start();
        // whatever of the batches survived the stop, the store goes on from the database's revision
        long real = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(this::revisionRow, r -> r > 0);
        AtomicInteger attempt = new AtomicInteger();
        StoredObject after = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(
                        () -> {
                            String name = "after" + attempt.incrementAndGet();
                            return await(a.create(podKey("q", name), pod("q", name, "Pending")));
                        },
                        r -> true);
        assertThat(after.revision()).isGreaterThan(real).isEqualTo(revisionRow());
        List<String> log = eventLog(vertx, db, "pods", 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> watch.described().equals(log));
    }

    private long revisionRow() {
        return await(raw.query(Statements.CURRENT_REVISION).execute())
                .iterator()
                .next()
                .getLong(0);
    }

    private long writerWaitsForTheLock() {
        return await(raw.query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                + " AND wait_event_type = 'Lock'")
                        .execute())
                .iterator()
                .next()
                .getLong(0);
    }
}
