package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.eventLog;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.pg.StoreTestSupport.RecordingListener;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The central guarantee: with many concurrent writers on two store instances sharing one database,
 * every watcher (on either instance, started at any revision, from the in-memory cache or from the
 * database) receives exactly the event-log rows above its start revision, in order, once each.
 */
class WatchOrderingTest {
    private static final int WRITERS_PER_STORE = 16;
    private static final int OPS_PER_WRITER = 100;

    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<PgResourceStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(PgResourceStore::close);
        vertxes.forEach(v -> await(v.close()));
    }

    private PgResourceStore open(PgConnectOptions db, int cacheSize) {
        Vertx vertx = Vertx.vertx();
        vertxes.add(vertx);
        PgResourceStore store = await(
                PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db).withWatchCacheSize(cacheSize)));
        stores.add(store);
        return store;
    }

    record StartedWatch(String name, String resource, String namespace, long from, RecordingListener listener) {}

    @Test
    void everyWatcherSeesTheEventLogInOrderExactlyOnce() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        PgResourceStore a = open(db, 10_000);
        PgResourceStore b = open(db, 50); // tiny cache: late watchers on b catch up from the database
        List<StartedWatch> watches = new ArrayList<>();

        watches.add(watch(a, "a-from-start", "pods", null, 0));
        watches.add(watch(b, "b-from-start", "pods", null, 0));
        watches.add(watch(b, "b-ns1-from-start", "pods", "ns1", 0));
        watches.add(watch(a, "a-jobs-from-start", "jobs.batch", null, 0));

        AtomicInteger done = new AtomicInteger();
        List<Future<Void>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS_PER_STORE; w++) {
            writers.add(writer(a, "a" + w, done));
            writers.add(writer(b, "b" + w, done));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> done.get() >= WRITERS_PER_STORE * OPS_PER_WRITER);
        long middle = await(a.currentRevision());
        watches.add(watch(a, "a-from-middle", "pods", null, middle));
        watches.add(watch(b, "b-from-10-during-writes", "pods", null, 10));
        watches.add(watch(b, "b-ns0-from-middle", "pods", "ns0", middle));

        writers.forEach(StoreTestSupport::await);
        long end = await(b.currentRevision());
        assertThat(end).isGreaterThan(2L * WRITERS_PER_STORE * OPS_PER_WRITER / 2);
        watches.add(watch(a, "a-from-5-after-writes", "pods", null, 5));
        watches.add(watch(b, "b-from-middle-after-writes", "pods", null, middle));
        watches.add(watch(b, "b-at-end", "pods", null, end));

        Vertx checker = vertxes.get(0);
        for (StartedWatch w : watches) {
            List<String> expected = eventLog(checker, db, w.resource(), w.from()).stream()
                    .filter(e -> w.namespace() == null || e.split(" ", -1)[2].startsWith(w.namespace() + "/"))
                    .toList();
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(w.listener().events).as(w.name()).hasSizeGreaterThanOrEqualTo(expected.size()));
            assertThat(w.listener().error.get()).as(w.name()).isNull();
            assertThat(w.listener().described()).as(w.name()).containsExactlyElementsOf(expected);
        }
        // One global counter, no gaps: revisions 1..end each appear once in the log.
        List<String> all = new ArrayList<>(eventLog(checker, db, "pods", 0));
        all.addAll(eventLog(checker, db, "jobs.batch", 0));
        assertThat(all.stream()
                        .map(e -> Long.parseLong(e.split(" ", -1)[0]))
                        .sorted()
                        .toList())
                .isEqualTo(
                        java.util.stream.LongStream.rangeClosed(1, end).boxed().toList());
    }

    private static StartedWatch watch(
            PgResourceStore store, String name, String resource, String namespace, long from) {
        RecordingListener listener = new RecordingListener();
        store.watch(resource, namespace, from, listener);
        return new StartedWatch(name, resource, namespace, from, listener);
    }

    /**
     * One client doing OPS_PER_WRITER writes one after the other: its own object's lifecycle, stale
     * updates (Conflict), and contended creates/deletes of shared keys (AlreadyExists/NotFound).
     */
    private static Future<Void> writer(PgResourceStore store, String id, AtomicInteger done) {
        AtomicLong revision = new AtomicLong();
        String ns = "ns" + (id.hashCode() & 1);
        Future<Void> chain = Future.succeededFuture();
        for (int i = 0; i < OPS_PER_WRITER; i++) {
            int op = i;
            chain = chain.compose(v -> step(store, id, ns, op, revision)).onSuccess(v -> done.incrementAndGet());
        }
        return chain;
    }

    private static Future<Void> step(PgResourceStore store, String id, String ns, int op, AtomicLong revision) {
        ResourceKey own = new ResourceKey("pods", ns, id + "-" + op / 5);
        Future<StoredObject> write =
                switch (op % 5) {
                    case 0 -> store.create(own, pod(ns, own.name(), "Pending"));
                    case 1 -> store.update(own, pod(ns, own.name(), "Running"), revision.get());
                    case 2 -> store.update(own, pod(ns, own.name(), "Failed"), revision.get() - 1); // Conflict
                    case 3 -> op % 2 == 1
                            ? store.create(
                                    new ResourceKey("pods", "ns1", "shared-" + op % 7),
                                    pod("ns1", "shared-" + op % 7, "Pending"))
                            : store.create(
                                    new ResourceKey("jobs.batch", ns, id + "-" + op), pod(ns, id + "-" + op, "x"));
                    default -> op % 10 == 4
                            ? store.delete(new ResourceKey("pods", "ns1", "shared-" + (op + 3) % 7), 0)
                            : store.delete(own, revision.get());
                };
        return write.transform(ar -> {
            if (ar.succeeded()) {
                if (ar.result().key().equals(own)) {
                    revision.set(ar.result().revision());
                }
                return Future.succeededFuture();
            }
            if (ar.cause() instanceof StoreException.Unavailable) {
                return Future.failedFuture(ar.cause());
            }
            return Future.succeededFuture(); // expected precondition failures
        });
    }
}
