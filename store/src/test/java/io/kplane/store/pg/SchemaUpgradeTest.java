package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.StoredObject;
import io.kplane.store.pg.StoreTestSupport.RecordingListener;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A state directory's database made by an earlier version of the store is upgraded in place when the
 * store opens: the database here is built by the migrations of the version before V3 only (V1, V2, as
 * that version's {@code Migrator} recorded them), holds objects and events that version's write
 * function wrote, and after the upgrade every read — get, a list and its continue pages at an older
 * revision, a watch from an old revision — answers exactly as before, and new writes follow on.
 */
class SchemaUpgradeTest {
    private static final int PREVIOUS_VERSION = 2;

    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        await(vertx.close());
    }

    @Test
    void aDatabaseOfThePreviousSchemaIsUpgradedWithItsHistoryIntact() {
        PgConnectOptions db = TestPostgres.get().newDatabase();
        Pool pool = StoreTestSupport.oneConnectionPool(vertx, db);
        try {
            buildPreviousSchema(pool);
            assertThat(indexes(pool)).contains("event_log_key");
            // As the previous version's writer did: one call of its write function per batch.
            // Revisions 1-3 create p1, p2, p3; 4 updates p1; 5 deletes p2.
            applyWrites(pool, "A", "p1", 0, "Pending", "A", "p2", 0, "Pending", "A", "p3", 0, "Pending");
            applyWrites(pool, "M", "p1", 1, "Running");
            applyWrites(pool, "D", "p2", 2, null);

            try (PgResourceStore store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)))) {
                assertThat(schemaVersion(pool)).isEqualTo(Migrator.load().size());
                assertThat(indexes(pool)).doesNotContain("event_log_key").contains("event_log_resource");

                StoredObject p1 = await(store.get(podKey("ns", "p1")));
                assertThat(p1.revision()).isEqualTo(4);
                assertThat(p1.object().path("status").path("phase").asText()).isEqualTo("Running");
                assertThat(names(await(store.list(ListRequest.all("pods", "ns")))))
                        .containsExactly("p1@4", "p3@3");

                // A continue page rebuilds the state at the first page's revision from the event log.
                ListPage first = await(store.list(new ListRequest("pods", "ns", o -> true, 1, null)));
                assertThat(names(first)).containsExactly("p1@4");
                await(store.update(podKey("ns", "p3"), pod("ns", "p3", "Running"), 3));
                await(store.create(podKey("ns", "p0"), pod("ns", "p0", "Pending")));
                ListPage second = await(store.list(new ListRequest("pods", "ns", o -> true, 5, first.continueToken())));
                assertThat(names(second)).containsExactly("p3@3");

                // A watch from an old revision replays the previous version's events, then the new ones.
                RecordingListener fromOne = new RecordingListener();
                store.watch("pods", null, 1, fromOne);
                Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fromOne.described())
                        .containsExactly("2 A ns/p2", "3 A ns/p3", "4 M ns/p1", "5 D ns/p2", "6 M ns/p3", "7 A ns/p0"));
                assertThat(fromOne.error.get()).isNull();
            }

            // Opening again finds nothing left to migrate.
            try (PgResourceStore again = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)))) {
                assertThat(schemaVersion(pool)).isEqualTo(Migrator.load().size());
                assertThat(await(again.get(podKey("ns", "p0"))).revision()).isEqualTo(7);
            }
        } finally {
            pool.close();
        }
    }

    /** The schema as the previous version's Migrator left it: its migrations applied and recorded. */
    private static void buildPreviousSchema(Pool pool) {
        List<Migrator.Migration> previous = Migrator.load().subList(0, PREVIOUS_VERSION);
        await(pool.withTransaction(conn -> {
            Future<?> chain = conn.query("CREATE TABLE schema_version (version int PRIMARY KEY, "
                            + "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
                    .execute();
            for (Migrator.Migration m : previous) {
                chain = chain.compose(v -> conn.query(m.sql()).execute())
                        .compose(v -> conn.preparedQuery("INSERT INTO schema_version (version, name) VALUES ($1, $2)")
                                .execute(Tuple.of(m.version(), m.name())));
            }
            return chain;
        }));
    }

    /** One batch through the write function: (kind, name, expected revision, phase) per write, pods in ns. */
    private static void applyWrites(Pool pool, Object... writes) {
        int n = writes.length / 4;
        String[] kinds = new String[n];
        String[] resources = new String[n];
        String[] namespaces = new String[n];
        String[] names = new String[n];
        String[] data = new String[n];
        Long[] expected = new Long[n];
        String[] none = new String[n];
        for (int i = 0; i < n; i++) {
            kinds[i] = (String) writes[4 * i];
            resources[i] = "pods";
            namespaces[i] = "ns";
            names[i] = (String) writes[4 * i + 1];
            expected[i] = ((Number) writes[4 * i + 2]).longValue();
            String phase = (String) writes[4 * i + 3];
            data[i] = phase == null
                    ? null
                    : ObjectCodec.encodeOwned(pod("ns", names[i], phase)).text();
        }
        for (Row row : await(pool.preparedQuery(Statements.APPLY_WRITES)
                .execute(Tuple.tuple(
                        List.of(kinds, resources, namespaces, names, data, expected, 0L, none, none, none))))) {
            assertThat(row.getLong("new_rev"))
                    .as("each write of the batch applied")
                    .isNotNull();
        }
    }

    private static int schemaVersion(Pool pool) {
        return await(pool.query("SELECT max(version) FROM schema_version").execute())
                .iterator()
                .next()
                .getInteger(0);
    }

    private static List<String> indexes(Pool pool) {
        List<String> result = new ArrayList<>();
        for (Row row : await(pool.query("SELECT indexname FROM pg_indexes WHERE tablename = 'event_log'")
                .execute())) {
            result.add(row.getString(0));
        }
        return result;
    }

    private static List<String> names(ListPage page) {
        return page.items().stream()
                .map(o -> o.key().name() + "@" + o.revision())
                .toList();
    }
}
