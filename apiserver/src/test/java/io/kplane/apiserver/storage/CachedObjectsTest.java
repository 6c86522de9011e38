package io.kplane.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.store.ResourceKey;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ServiceAccount lookup cache of pod admission, on a real PostgreSQL store: it lists what exists
 * at start, follows creates and deletes through the watch, and a miss means "ask the store".
 */
class CachedObjectsTest {
    private Vertx vertx;
    private PgResourceStore store;
    private CachedObjects cache;

    @BeforeEach
    void open() throws Exception {
        vertx = Vertx.vertx();
        store = PgResourceStore.open(vertx, StoreConfig.of(TestPostgres.get().newDatabase()))
                .await(60, TimeUnit.SECONDS);
        cache = new CachedObjects(vertx, store, ResourceTypes.SERVICEACCOUNTS);
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
        store.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private ResourceKey account(String namespace, String name) {
        return new ResourceKey(ResourceTypes.SERVICEACCOUNTS.storageName(), namespace, name);
    }

    private void createAccount(String namespace, String name) throws Exception {
        store.create(account(namespace, name), (com.fasterxml.jackson.databind.node.ObjectNode)
                        Json.tree("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\"}}"))
                .await(10, TimeUnit.SECONDS);
    }

    @Test
    void listsThenFollowsCreatesAndDeletes() throws Exception {
        createAccount("team-a", "default");
        cache.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> cache.get("team-a", "default") != null);
        assertThat(cache.get("team-a", "default").at("/metadata/name").asText()).isEqualTo("default");
        assertThat(cache.get("team-b", "default"))
                .as("a miss: only the store can say")
                .isNull();

        createAccount("team-b", "builder");
        await().atMost(Duration.ofSeconds(30)).until(() -> cache.get("team-b", "builder") != null);

        var stored = store.get(account("team-b", "builder")).await(10, TimeUnit.SECONDS);
        store.delete(account("team-b", "builder"), stored.revision()).await(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> cache.get("team-b", "builder") == null);
        assertThat(cache.get("team-a", "default")).isNotNull();
    }
}
