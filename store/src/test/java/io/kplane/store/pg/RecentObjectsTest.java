package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.ResourceKey;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * getForUpdate answers from the store's memory of its own writes, and that memory is only ever a
 * base for conditional writes: stale after another instance's write, it makes the write conflict,
 * and it is dropped once the other instance's event is read.
 */
class RecentObjectsTest {
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<PgResourceStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(PgResourceStore::close);
        vertxes.forEach(v -> await(v.close()));
    }

    private PgResourceStore open(PgConnectOptions db) {
        Vertx vertx = Vertx.vertx();
        vertxes.add(vertx);
        PgResourceStore store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
        stores.add(store);
        return store;
    }

    @Test
    void ownWritesAreTheNextUpdatesBaseWithoutADatabaseRead() {
        PgResourceStore store = open(TestPostgres.get().newDatabase());
        ResourceKey key = podKey("default", "p");
        StoredObject created = await(store.create(key, pod("default", "p", "Pending")));

        Future<StoredObject> base = store.getForUpdate(key);
        assertThat(base.isComplete()).as("answered from memory, not by a query").isTrue();
        assertThat(base.result().revision()).isEqualTo(created.revision());
        assertThat(base.result().object()).isEqualTo(created.object());

        StoredObject updated = await(store.update(key, pod("default", "p", "Running"), created.revision()));
        assertThat(store.getForUpdate(key).result().revision()).isEqualTo(updated.revision());

        await(store.delete(key, updated.revision()));
        assertThat(failure(store.getForUpdate(key))).isInstanceOf(StoreException.NotFound.class);
    }

    @Test
    void anotherInstancesWriteMakesTheRememberedBaseConflictThenEvictsIt() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        PgResourceStore a = open(db);
        PgResourceStore b = open(db);
        ResourceKey key = podKey("default", "shared");
        StoredObject v1 = await(a.create(key, pod("default", "shared", "Pending")));
        StoredObject v2 = await(b.update(key, pod("default", "shared", "Running"), v1.revision()));

        // a may still remember v1: a write based on it must conflict, never overwrite v2
        StoredObject base = await(a.getForUpdate(key));
        if (base.revision() == v1.revision()) {
            assertThat(failure(a.update(key, pod("default", "shared", "Failed"), base.revision())))
                    .isInstanceOf(StoreException.Conflict.class);
        }
        // once a has read b's event, it forgets v1 and reads the current state
        await().atMost(Duration.ofSeconds(10))
                .until(() -> await(a.getForUpdate(key)).revision() == v2.revision());
        assertThat(await(a.get(key)).object().at("/status/phase").asText()).isEqualTo("Running");
    }

    @Test
    void modifiedEventsCarryThePreviousStateWhetherRememberedOrRead() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        PgResourceStore store = open(db);
        PgResourceStore other = open(db);
        StoreTestSupport.RecordingListener watch = new StoreTestSupport.RecordingListener();
        long start = await(store.currentRevision());
        store.watch("pods", "default", start, watch);
        ResourceKey key = podKey("default", "p");
        StoredObject v1 = await(store.create(key, pod("default", "p", "Pending")));
        StoredObject v2 = await(store.update(key, pod("default", "p", "Running"), v1.revision())); // base remembered
        StoredObject v3 =
                await(other.update(key, pod("default", "p", "Succeeded"), v2.revision())); // read from the log
        await().atMost(Duration.ofSeconds(10)).until(() -> watch.events.size() == 3);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> await(store.getForUpdate(key)).revision() == v3.revision());
        StoredObject v4 = await(store.update(key, pod("default", "p", "Failed"), v3.revision())); // base not remembered
        await().atMost(Duration.ofSeconds(10)).until(() -> watch.events.size() == 4);

        List<StoreEvent> events = watch.events;
        assertThat(events)
                .extracting(StoreEvent::revision)
                .containsExactly(v1.revision(), v2.revision(), v3.revision(), v4.revision());
        assertThat(events.get(0).previous()).isNull();
        String[] phases = {"Pending", "Running", "Succeeded", "Failed"};
        for (int i = 1; i < 4; i++) {
            assertThat(events.get(i).type()).isEqualTo(StoreEvent.Type.MODIFIED);
            assertThat(events.get(i).object().at("/status/phase").asText()).isEqualTo(phases[i]);
            assertThat(events.get(i).previous().at("/status/phase").asText()).isEqualTo(phases[i - 1]);
            assertThat(events.get(i).previous().at("/metadata/resourceVersion").asText())
                    .isEqualTo(Long.toString(events.get(i - 1).revision()));
        }
    }
}
