package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PgResourceStoreCrudTest {
    static Vertx vertx;
    static PgConnectOptions db;
    static PgResourceStore store;

    @BeforeAll
    static void open() {
        vertx = Vertx.vertx();
        db = TestPostgres.get().newDatabase();
        store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
    }

    @AfterAll
    static void close() {
        store.close();
        await(vertx.close());
    }

    @Test
    void createGetUpdateDeleteStampRevisions() {
        ResourceKey key = podKey("default", "crud");
        StoredObject created = await(store.create(key, pod("default", "crud", "Pending")));
        assertThat(created.revision()).isPositive();
        assertThat(created.object().path("metadata").path("resourceVersion").asText())
                .isEqualTo(Long.toString(created.revision()));

        StoredObject read = await(store.get(key));
        assertThat(read.revision()).isEqualTo(created.revision());
        assertThat(read.object()).isEqualTo(created.object());
        assertThat(read.object().fieldNames()).toIterable().containsExactly("apiVersion", "kind", "metadata", "status");

        ObjectNode running = pod("default", "crud", "Running");
        StoredObject updated = await(store.update(key, running, created.revision()));
        assertThat(updated.revision()).isGreaterThan(created.revision());
        assertThat(await(store.get(key)).object().path("status").path("phase").asText())
                .isEqualTo("Running");

        StoredObject deleted = await(store.delete(key, updated.revision()));
        assertThat(deleted.revision()).isGreaterThan(updated.revision());
        assertThat(deleted.object().path("status").path("phase").asText()).isEqualTo("Running");
        assertThat(deleted.object().path("metadata").path("resourceVersion").asText())
                .isEqualTo(Long.toString(deleted.revision()));
        assertThat(failure(store.get(key))).isInstanceOf(StoreException.NotFound.class);
        assertThat(await(store.currentRevision())).isGreaterThanOrEqualTo(deleted.revision());
    }

    @Test
    void createTwiceIsAlreadyExists() {
        ResourceKey key = podKey("default", "twice");
        await(store.create(key, pod("default", "twice", "Pending")));
        assertThat(failure(store.create(key, pod("default", "twice", "Pending"))))
                .isInstanceOf(StoreException.AlreadyExists.class);
    }

    @Test
    void staleRevisionIsConflictAndZeroIsUnconditional() {
        ResourceKey key = podKey("default", "occ");
        StoredObject v1 = await(store.create(key, pod("default", "occ", "Pending")));
        StoredObject v2 = await(store.update(key, pod("default", "occ", "Running"), v1.revision()));

        Throwable conflict = failure(store.update(key, pod("default", "occ", "Failed"), v1.revision()));
        assertThat(conflict).isInstanceOf(StoreException.Conflict.class);
        assertThat(((StoreException.Conflict) conflict).actualRevision()).isEqualTo(v2.revision());
        assertThat(failure(store.delete(key, v1.revision()))).isInstanceOf(StoreException.Conflict.class);

        StoredObject v3 = await(store.update(key, pod("default", "occ", "Succeeded"), 0));
        assertThat(v3.revision()).isGreaterThan(v2.revision());
        await(store.delete(key, 0));
    }

    @Test
    void missingObjectIsNotFound() {
        ResourceKey key = podKey("default", "ghost");
        assertThat(failure(store.get(key))).isInstanceOf(StoreException.NotFound.class);
        assertThat(failure(store.update(key, pod("default", "ghost", "Pending"), 0)))
                .isInstanceOf(StoreException.NotFound.class);
        assertThat(failure(store.delete(key, 0))).isInstanceOf(StoreException.NotFound.class);
    }

    @Test
    void clusterScopedKeysUseEmptyNamespace() {
        ResourceKey node = new ResourceKey("nodes", null, "node-1");
        await(store.create(node, pod("", "node-1", "Ready")));
        assertThat(await(store.get(new ResourceKey("nodes", "", "node-1"))).key())
                .isEqualTo(node);
    }

    @Test
    void concurrentWritesInOneBatchFailIndependently() {
        // Many writes queued at once land in few transactions; the failing ones must not affect the others.
        List<io.vertx.core.Future<StoredObject>> creates = new ArrayList<>();
        IntStream.range(0, 200)
                .forEach(i -> creates.add(
                        store.create(podKey("batch", "p" + (i % 100)), pod("batch", "p" + (i % 100), "Pending"))));
        long ok = creates.stream()
                .filter(f -> {
                    try {
                        await(f);
                        return true;
                    } catch (StoreException.AlreadyExists e) {
                        return false;
                    }
                })
                .count();
        assertThat(ok).isEqualTo(100);
        List<Long> revisions = creates.stream()
                .filter(f -> f.succeeded())
                .map(f -> f.result().revision())
                .sorted()
                .toList();
        assertThat(revisions).doesNotHaveDuplicates();
        assertThat(revisions.get(revisions.size() - 1) - revisions.get(0)).isEqualTo(99); // no gaps
    }

    @Test
    void writesToOneKeyQueuedTogetherApplyInOrder() {
        // Queued without waiting, they share a batch; each must see the one before it (later rounds).
        ResourceKey key = podKey("seq", "same");
        io.vertx.core.Future<StoredObject> created = store.create(key, pod("seq", "same", "Pending"));
        io.vertx.core.Future<StoredObject> updated = store.update(key, pod("seq", "same", "Running"), 0);
        io.vertx.core.Future<StoredObject> deleted = store.delete(key, 0);
        io.vertx.core.Future<StoredObject> missing = store.delete(key, 0);
        io.vertx.core.Future<StoredObject> recreated = store.create(key, pod("seq", "same", "Succeeded"));
        long first = await(created).revision();
        assertThat(await(updated).revision()).isEqualTo(first + 1);
        assertThat(await(deleted).revision()).isEqualTo(first + 2);
        assertThat(await(deleted).object().path("status").path("phase").asText())
                .isEqualTo("Running");
        assertThat(failure(missing)).isInstanceOf(StoreException.NotFound.class);
        assertThat(await(recreated).revision()).isEqualTo(first + 3);
        assertThat(await(store.get(key)).object().path("status").path("phase").asText())
                .isEqualTo("Succeeded");
    }

    @Test
    void aWriteTheDatabaseRejectsFailsAloneNotItsBatch() {
        List<io.vertx.core.Future<StoredObject>> creates = new ArrayList<>();
        IntStream.range(0, 50)
                .forEach(i -> creates.add(store.create(podKey("iso", "p" + i), pod("iso", "p" + i, "Pending"))));
        io.vertx.core.Future<StoredObject> bad =
                store.create(podKey("iso", "nul\u0000name"), pod("iso", "x", "Pending"));
        IntStream.range(50, 100)
                .forEach(i -> creates.add(store.create(podKey("iso", "p" + i), pod("iso", "p" + i, "Pending"))));
        assertThat(failure(bad)).isInstanceOf(StoreException.BadRequest.class);
        creates.forEach(f -> assertThat(await(f).revision()).isPositive());
    }

    @Test
    void reopeningMigratesIdempotently() {
        PgResourceStore second = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
        try {
            assertThat(await(second.currentRevision())).isEqualTo(await(store.currentRevision()));
        } finally {
            second.close();
        }
    }
}
