package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The writer's statistics count what it sent: every write once, in batches whose sizes add up. */
class WriterStatsTest {
    private final Vertx vertx = Vertx.vertx();
    private PgResourceStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        StoreTestSupport.await(vertx.close());
    }

    @Test
    void countsBatchesWritesAndBusyTime() {
        store = StoreTestSupport.await(PgResourceStore.open(
                vertx, StoreTestSupport.fastConfig(TestPostgres.get().newDatabase())));
        WriterStats before = store.writerStats();

        // one lone write, then 40 at once (they queue behind each other and form larger batches)
        StoreTestSupport.await(store.create(podKey("ns", "lone"), pod("ns", "lone", "Pending")));
        List<Future<StoredObject>> burst = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            burst.add(store.create(podKey("ns", "p" + i), pod("ns", "p" + i, "Pending")));
        }
        StoreTestSupport.await(Future.all(burst));

        WriterStats window = store.writerStats().minus(before);
        assertThat(window.writes()).isEqualTo(41);
        assertThat(window.batches()).isBetween(2L, 41L);
        assertThat(Arrays.stream(window.sizes()).sum()).isEqualTo(window.batches());
        assertThat(window.sizes()[0]).as("the lone write was a batch of one").isGreaterThanOrEqualTo(1);
        assertThat(window.busyNanos()).isPositive();
        assertThat(window.sizeHistogram()).startsWith("1:");
    }

    @Test
    void bucketsAreTheDocumentedRanges() {
        assertThat(WriterStats.bucket(1)).isZero();
        assertThat(WriterStats.bucket(2)).isEqualTo(1);
        assertThat(WriterStats.bucket(3)).isEqualTo(1);
        assertThat(WriterStats.bucket(16)).isEqualTo(4);
        assertThat(WriterStats.bucket(31)).isEqualTo(4);
        assertThat(WriterStats.bucket(128)).isEqualTo(7);
        assertThat(WriterStats.bucket(256)).isEqualTo(7);
        long[] sizes = new long[8];
        sizes[0] = 3;
        sizes[4] = 2;
        sizes[7] = 1;
        assertThat(new WriterStats(6, 100, 1, sizes).sizeHistogram()).isEqualTo("1:3 16-31:2 128+:1");
    }
}
