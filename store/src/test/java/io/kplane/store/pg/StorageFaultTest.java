package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.store.StoreException;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL refusing writes while it stays up (its data directory full or read-only): every write
 * fails with {@link StoreException.Unavailable} (the API server's 503) whose message says what an
 * operator must fix, reads keep working, the writer's readiness reports it, and once fixed writes
 * succeed again with nothing committed before lost. The full-stack version, with a really full
 * filesystem, is the fault suite's (docs/faults.md).
 */
class StorageFaultTest {
    private final Vertx vertx = Vertx.vertx();
    private PgConnectOptions db;
    private Pool admin;
    private PgResourceStore store;

    @BeforeEach
    void open() {
        db = TestPostgres.get().newDatabase();
        admin = StoreTestSupport.oneConnectionPool(vertx, db);
        store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
        for (int i = 0; i < 5; i++) {
            await(store.create(podKey("f", "before" + i), pod("f", "before" + i, "Pending")));
        }
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (admin != null) {
            admin.close();
        }
        await(vertx.close());
    }

    private void sql(String statement) {
        await(admin.query(statement).execute());
    }

    /** Ends the store's sessions so that its new ones get the database's new defaults. */
    private void reconnectStore() {
        sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                + "AND pid <> pg_backend_pid()");
    }

    @Test
    void readOnlyDatabaseRefusesWritesWith503AndKeepsServingReads() {
        // what an operator does when the data directory cannot take writes: make the database read-only
        sql("SET default_transaction_read_only = off");
        sql("ALTER DATABASE \"" + db.getDatabase() + "\" SET default_transaction_read_only = on");
        reconnectStore();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Throwable refused = failure(store.create(podKey("f", "during"), pod("f", "during", "Pending")));
            assertThat(refused).isInstanceOf(StoreException.Unavailable.class);
            assertThat(refused.getMessage())
                    .startsWith("database is read-only, writes are refused until it accepts writes again")
                    .contains("SQLSTATE 25006");
        });
        assertThat(await(store.get(podKey("f", "before3")))
                        .object()
                        .path("metadata")
                        .path("name")
                        .asText())
                .isEqualTo("before3");
        assertThat(failure(store.writerReady()).getMessage()).contains("25006");

        sql("ALTER DATABASE \"" + db.getDatabase() + "\" SET default_transaction_read_only = off");
        reconnectStore();
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(StoreException.Unavailable.class)
                .until(() -> await(store.create(podKey("f", "after"), pod("f", "after", "Pending"))) != null);
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> store.writerReady()
                                .toCompletionStage()
                                .toCompletableFuture()
                                .get()
                        == null);
        for (int i = 0; i < 5; i++) {
            assertThat(await(store.get(podKey("f", "before" + i)))).isNotNull();
        }
        assertThat(failure(store.get(podKey("f", "during")))).isInstanceOf(StoreException.NotFound.class);
    }

    /**
     * The SQLSTATEs a full or failing data directory raises on a write (53100 disk_full "could not
     * extend file", 58030 io_error): raised here by a trigger on the store's table with PostgreSQL's
     * own wording, since filling a real disk needs a filesystem of its own (the fault suite does that).
     */
    @Test
    void diskFullAndIoErrorsAre503sWithTheirCause() {
        sql("CREATE FUNCTION storage_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "RAISE EXCEPTION USING ERRCODE = TG_ARGV[0], MESSAGE = TG_ARGV[1]; END $$");
        String[][] faults = {
            {"53100", "could not extend file \"base/16384/16390\": No space left on device", "database disk full"},
            {"58030", "could not write to file \"base/16384/16390\": Read-only file system", "database I/O error"}
        };
        for (String[] fault : faults) {
            sql("CREATE TRIGGER storage_fault BEFORE INSERT OR UPDATE ON objects FOR EACH ROW "
                    + "EXECUTE FUNCTION storage_fault('" + fault[0] + "', '" + fault[1].replace("'", "''") + "')");
            Throwable refused = failure(store.create(podKey("f", "full"), pod("f", "full", "Pending")));
            assertThat(refused).isInstanceOf(StoreException.Unavailable.class);
            assertThat(refused.getMessage())
                    .startsWith(fault[2])
                    .contains(fault[1])
                    .contains("SQLSTATE " + fault[0]);
            assertThat(await(store.get(podKey("f", "before1")))).isNotNull();
            // readiness says why until a write commits again (its probe writes nothing, so cannot tell)
            assertThat(failure(store.writerReady()).getMessage()).contains(fault[2]);
            sql("DROP TRIGGER storage_fault ON objects");
            await().atMost(Duration.ofSeconds(30))
                    .ignoreException(StoreException.Unavailable.class)
                    .until(() -> await(store.create(
                                    podKey("f", "after" + fault[0]), pod("f", "after" + fault[0], "Pending")))
                            != null);
            assertThat(await(store.writerReady())).isNull();
        }
        assertThat(failure(store.get(podKey("f", "full")))).isInstanceOf(StoreException.NotFound.class);
    }
}
