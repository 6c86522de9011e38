package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.StoreException;
import io.kplane.store.pg.StoreTestSupport.RecordingListener;
import io.kplane.store.testing.MutableClock;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CompactionTest {
    private static final Duration WINDOW = Duration.ofMinutes(5);

    Vertx vertx;
    MutableClock clock;
    PgResourceStore store;

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
        StoreConfig config = StoreTestSupport.fastConfig(TestPostgres.get().newDatabase())
                .withCompaction(WINDOW, Duration.ofHours(1)) // timer out of the way: compact() on demand
                .withClock(clock);
        store = await(PgResourceStore.open(vertx, config));
    }

    @AfterEach
    void close() {
        store.close();
        await(vertx.close());
    }

    @Test
    void compactedRevisionsAreExpiredForWatchesAndContinueTokens() {
        ListPage firstPage = null;
        for (int i = 0; i < 5; i++) {
            await(store.create(podKey("c", "old" + i), pod("c", "old" + i, "Pending")));
            if (i == 2) {
                firstPage = await(store.list(new ListRequest("pods", "c", o -> true, 2, null)));
            }
        }
        long oldRevision = await(store.currentRevision());
        assertThat(await(store.compact()))
                .as("nothing is older than the window yet")
                .isZero();

        clock.advance(WINDOW.plusSeconds(1));
        for (int i = 0; i < 3; i++) {
            await(store.create(podKey("c", "new" + i), pod("c", "new" + i, "Pending")));
        }
        long compacted = await(store.compact());
        assertThat(compacted).isEqualTo(oldRevision);

        RecordingListener tooOld = new RecordingListener();
        store.watch("pods", null, 2, tooOld);
        await().atMost(Duration.ofSeconds(10)).until(() -> tooOld.error.get() != null);
        assertThat(tooOld.error.get())
                .isInstanceOf(StoreException.Expired.class)
                .hasMessage("too old resource version: 2 (" + compacted + ")");

        Throwable page = failure(store.list(new ListRequest("pods", "c", o -> true, 2, firstPage.continueToken())));
        assertThat(page).isInstanceOf(StoreException.Expired.class);

        // From the compacted revision itself, every later event is still there.
        RecordingListener fromCompacted = new RecordingListener();
        store.watch("pods", null, compacted, fromCompacted);
        await().atMost(Duration.ofSeconds(10)).until(() -> fromCompacted.events.size() == 3);
        assertThat(fromCompacted.events).extracting(e -> e.key().name()).containsExactly("new0", "new1", "new2");
        assertThat(fromCompacted.error.get()).isNull();
        // Objects themselves are never compacted.
        assertThat(await(store.list(ListRequest.all("pods", "c"))).items()).hasSize(8);
    }

    @Test
    void aWatcherCatchingUpFromTheDatabaseIsExpiredWhenItsRangeIsCompacted() {
        // A store with a tiny cache, so a watch from an old revision must read the database.
        StoreConfig config = StoreTestSupport.fastConfig(TestPostgres.get().newDatabase())
                .withCompaction(WINDOW, Duration.ofHours(1))
                .withClock(clock)
                .withWatchCacheSize(1);
        PgResourceStore small = await(PgResourceStore.open(vertx, config));
        try {
            for (int i = 0; i < 4; i++) {
                await(small.create(podKey("c", "p" + i), pod("c", "p" + i, "Pending")));
            }
            clock.advance(WINDOW.plusSeconds(1));
            await(small.create(podKey("c", "late"), pod("c", "late", "Pending")));
            // Compacted through another path (as another instance would), so the hub has not heard of it.
            Vertx other = Vertx.vertx();
            try {
                await(new Compactor(
                                io.vertx.pgclient.PgBuilder.pool()
                                        .connectingTo(config.connectOptions())
                                        .using(other)
                                        .build(),
                                clock,
                                WINDOW)
                        .compact());
            } finally {
                await(other.close());
            }
            RecordingListener listener = new RecordingListener();
            small.watch("pods", null, 1, listener);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.error.get() != null);
            assertThat(listener.error.get()).isInstanceOf(StoreException.Expired.class);
            assertThat(listener.events).isEmpty();
        } finally {
            small.close();
        }
    }
}
