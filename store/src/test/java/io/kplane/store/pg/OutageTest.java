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
import io.kplane.store.pg.StoreTestSupport.RecordingListener;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** PostgreSQL stops and comes back: the store fails fast meanwhile, then recovers on its own. */
class OutageTest {
    Vertx vertx = Vertx.vertx();
    PgResourceStore store;
    PgResourceStore other;

    @AfterEach
    void close() {
        TestPostgres.get().start(); // in case the test failed mid-outage
        if (store != null) {
            store.close();
        }
        if (other != null) {
            other.close();
        }
        await(vertx.close());
    }

    @Test
    void operationsFailWithUnavailableThenRecoverAndWatchersMissNothing() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
        RecordingListener acrossOutage = new RecordingListener();
        store.watch("pods", null, 0, acrossOutage);
        // A second instance that only learns of writes through LISTEN/NOTIFY (its safety poll is off):
        // its watcher receiving the writes made after the restart proves the subscriber reconnected.
        other = await(PgResourceStore.open(
                vertx, StoreTestSupport.fastConfig(db).withSafetyPollInterval(Duration.ofHours(1))));
        RecordingListener viaNotify = new RecordingListener();
        other.watch("pods", null, 0, viaNotify);
        for (int i = 0; i < 20; i++) {
            await(store.create(podKey("o", "before" + i), pod("o", "before" + i, "Pending")));
        }

        TestPostgres.get().stop();
        long started = System.nanoTime();
        assertThat(failure(store.create(podKey("o", "during"), pod("o", "during", "Pending"))))
                .isInstanceOf(StoreException.Unavailable.class);
        assertThat(failure(store.get(podKey("o", "before1")))).isInstanceOf(StoreException.Unavailable.class);
        assertThat(failure(store.list(ListRequest.all("pods", "o")))).isInstanceOf(StoreException.Unavailable.class);
        assertThat(failure(store.currentRevision())).isInstanceOf(StoreException.Unavailable.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("fails fast")
                .isLessThan(Duration.ofSeconds(10));
        RecordingListener openedDuringOutage = new RecordingListener();
        store.watch("pods", "o", 10, openedDuringOutage);

        TestPostgres.get().start();
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(StoreException.Unavailable.class)
                .until(() -> await(store.get(podKey("o", "before1"))) != null);
        for (int i = 0; i < 20; i++) {
            await(store.create(podKey("o", "after" + i), pod("o", "after" + i, "Pending")));
        }

        List<String> all = eventLog(vertx, db, "pods", 0);
        assertThat(all).hasSize(40);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> acrossOutage.events.size() >= 40
                        && openedDuringOutage.events.size() >= 30
                        && viaNotify.events.size() >= 40);
        assertThat(acrossOutage.described()).containsExactlyElementsOf(all);
        assertThat(viaNotify.described()).containsExactlyElementsOf(all);
        assertThat(openedDuringOutage.described()).containsExactlyElementsOf(all.subList(10, 40));
        assertThat(acrossOutage.error.get()).isNull();
        assertThat(openedDuringOutage.error.get()).isNull();
    }
}
