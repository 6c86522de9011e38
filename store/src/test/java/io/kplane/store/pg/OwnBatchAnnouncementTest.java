package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The NOTIFY of a batch this instance wrote often reaches the watch hub before the writer hands the
 * batch over; the hub then waits for the batch instead of reading the event log for rows it is about
 * to receive (and would skip). Another instance's writes still arrive.
 */
class OwnBatchAnnouncementTest {
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<PgResourceStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(PgResourceStore::close);
        vertxes.forEach(v -> StoreTestSupport.await(v.close()));
    }

    private PgResourceStore open(PgConnectOptions db) {
        Vertx vertx = Vertx.vertx();
        vertxes.add(vertx);
        PgResourceStore store = StoreTestSupport.await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
        stores.add(store);
        return store;
    }

    @Test
    void ownWritesAreNotReadBackFromTheLogAndOtherInstancesWritesStillArrive() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        PgResourceStore store = open(db);
        long from = StoreTestSupport.await(store.currentRevision());
        StoreTestSupport.RecordingListener watcher = new StoreTestSupport.RecordingListener();
        var handle = store.watch("pods", null, from, watcher);

        long last = 0;
        for (int i = 0; i < 40; i++) {
            StoredObject created =
                    StoreTestSupport.await(store.create(podKey("ns", "p" + i), pod("ns", "p" + i, "Pending")));
            last = StoreTestSupport.await(
                            store.update(podKey("ns", "p" + i), pod("ns", "p" + i, "Running"), created.revision()))
                    .revision();
        }
        long lastOwn = last;
        await().atMost(Duration.ofSeconds(30)).until(() -> watcher.events.size() == 80);
        assertThat(watcher.events.get(79).revision()).isEqualTo(lastOwn);
        // every NOTIFY of these 80 batches came while the batch was in flight or after it was handed over
        assertThat(store.announcedLogReads()).isZero();

        PgResourceStore other = open(db);
        long otherRevision = StoreTestSupport.await(
                        other.create(podKey("ns", "elsewhere"), pod("ns", "elsewhere", "Pending")))
                .revision();
        await().atMost(Duration.ofSeconds(30)).until(() -> watcher.events.size() == 81);
        assertThat(watcher.events.get(80).revision()).isEqualTo(otherRevision);
        assertThat(watcher.error.get()).isNull();
        handle.close();
    }
}
