package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's default: a store that runs its own PostgreSQL with data kept in a folder. */
class EmbeddedStoreTest {
    Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        await(vertx.close());
    }

    @Test
    void dataSurvivesAStoreAndServerRestart(@TempDir Path dir) {
        int port = TestPostgres.freePortForTests();
        StoreConfig config = StoreConfig.embedded(dir.resolve("db"), port);
        PgResourceStore first = await(PgResourceStore.open(vertx, config));
        long revision;
        try {
            assertThat(first.embeddedServer()).isNotNull();
            revision = await(first.create(podKey("default", "kept"), pod("default", "kept", "Pending")))
                    .revision();
        } finally {
            first.close(); // stops the embedded server
        }
        PgResourceStore second = await(PgResourceStore.open(vertx, config));
        try {
            assertThat(await(second.get(podKey("default", "kept"))).revision()).isEqualTo(revision);
            assertThat(await(second.currentRevision())).isEqualTo(revision);
        } finally {
            second.close();
        }
    }

    @Test
    void urlsInBothFormsAreAccepted() {
        var jdbc = PgUrls.parse("jdbc:postgresql://db.local:5433/kplane?user=k&password=secret");
        assertThat(jdbc.getHost()).isEqualTo("db.local");
        assertThat(jdbc.getPort()).isEqualTo(5433);
        assertThat(jdbc.getDatabase()).isEqualTo("kplane");
        assertThat(jdbc.getUser()).isEqualTo("k");
        assertThat(jdbc.getPassword()).isEqualTo("secret");
        var uri = PgUrls.parse("postgresql://k:secret@db.local:5433/kplane");
        assertThat(uri.getUser()).isEqualTo("k");
        assertThat(uri.getDatabase()).isEqualTo("kplane");
        assertThatThrownBy(() -> PgUrls.parse("mysql://x/y")).isInstanceOf(IllegalArgumentException.class);
    }
}
