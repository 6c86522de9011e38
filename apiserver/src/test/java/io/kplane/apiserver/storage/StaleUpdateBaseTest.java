package io.kplane.apiserver.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.json.Json;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.admission.AdmissionChain;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.patch.JsonPatches;
import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store may hand an update a stale base from memory ({@code getForUpdate}, e.g. after another API
 * server wrote). Whatever the update concludes from such a base other than a successful conditional
 * write must be redone from the database: here the store's memory is replaced by a snapshot taken
 * before the object was changed behind its back, on a real PostgreSQL store.
 */
class StaleUpdateBaseTest {
    private Vertx vertx;
    private PgResourceStore store;
    private ResourceService service;
    private volatile StoredObject staleBase;

    @BeforeEach
    void open() throws Exception {
        vertx = Vertx.vertx();
        store = PgResourceStore.open(vertx, StoreConfig.of(TestPostgres.get().newDatabase()))
                .await(60, TimeUnit.SECONDS);
        service = new ResourceService(
                new StaleMemory(store),
                new WriteStrategy(Clock.systemUTC()),
                AdmissionChain.standard(),
                new JsonPatches());
        service.create(
                        ResourceTypes.NAMESPACES,
                        null,
                        Json.tree("{\"metadata\":{\"name\":\"default\"}}"),
                        WriteOptions.defaults())
                .await(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        store.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void aNoOpJudgedOnAStaleBaseIsRedoneAndWritten() throws Exception {
        ObjectNode created = create("p", "a");
        remember(created);
        patchLabel("p", "b"); // the change the stale memory has not seen

        WriteResult back = patchLabel("p", "a"); // "nothing to change" against the stale base
        assertThat(back.object().at("/metadata/labels/app").asText()).isEqualTo("a");
        assertThat(get("p").at("/metadata/labels/app").asText()).isEqualTo("a");
        assertThat(Long.parseLong(get("p").at("/metadata/resourceVersion").asText()))
                .isGreaterThan(
                        Long.parseLong(created.at("/metadata/resourceVersion").asText()) + 1);
    }

    @Test
    void aPreconditionFailureJudgedOnAStaleBaseIsRedone() throws Exception {
        remember(create("q", "a"));
        WriteResult current = patchLabel("q", "b");
        String rv = current.object().at("/metadata/resourceVersion").asText();

        // the client holds the current revision; only the stale base disagrees with it
        String body = "{\"metadata\":{\"resourceVersion\":\"" + rv + "\",\"labels\":{\"app\":\"c\"}}}";
        WriteResult patched = service.patch(
                        ResourceTypes.PODS,
                        "default",
                        "q",
                        null,
                        PatchType.MERGE,
                        Json.tree(body),
                        WriteOptions.defaults())
                .await(10, TimeUnit.SECONDS);
        assertThat(patched.object().at("/metadata/labels/app").asText()).isEqualTo("c");

        // and a real conflict is still a conflict after the re-read
        assertThatThrownBy(() -> service.patch(
                                ResourceTypes.PODS,
                                "default",
                                "q",
                                null,
                                PatchType.MERGE,
                                Json.tree(body),
                                WriteOptions.defaults())
                        .await(10, TimeUnit.SECONDS))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo(409));
    }

    private void remember(ObjectNode object) {
        staleBase = new StoredObject(
                new ResourceKey("pods", "default", object.at("/metadata/name").asText()),
                Long.parseLong(object.at("/metadata/resourceVersion").asText()),
                object.deepCopy());
    }

    private ObjectNode create(String name, String app) throws Exception {
        ObjectNode pod = (ObjectNode) Json.tree(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\""
                        + app + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        return service.create(ResourceTypes.PODS, "default", pod, WriteOptions.defaults())
                .await(10, TimeUnit.SECONDS)
                .object();
    }

    private WriteResult patchLabel(String name, String app) throws Exception {
        return service.patch(
                        ResourceTypes.PODS,
                        "default",
                        name,
                        null,
                        PatchType.MERGE,
                        Json.tree("{\"metadata\":{\"labels\":{\"app\":\"" + app + "\"}}}"),
                        WriteOptions.defaults())
                .await(10, TimeUnit.SECONDS);
    }

    private ObjectNode get(String name) throws Exception {
        return service.get(ResourceTypes.PODS, "default", name).await(10, TimeUnit.SECONDS);
    }

    /** The real store, except that its memory for updates is a snapshot that may be stale. */
    private final class StaleMemory implements ResourceStore {
        private final ResourceStore real;

        StaleMemory(ResourceStore real) {
            this.real = real;
        }

        @Override
        public Future<StoredObject> getForUpdate(ResourceKey key) {
            StoredObject base = staleBase;
            return base != null && base.key().equals(key) ? Future.succeededFuture(base) : real.getForUpdate(key);
        }

        @Override
        public Future<StoredObject> create(ResourceKey key, ObjectNode object) {
            return real.create(key, object);
        }

        @Override
        public Future<StoredObject> create(ResourceKey key, ObjectNode object, ResourceKey parent) {
            return real.create(key, object, parent);
        }

        @Override
        public Future<StoredObject> update(ResourceKey key, ObjectNode object, long expectedRevision) {
            return real.update(key, object, expectedRevision);
        }

        @Override
        public Future<StoredObject> delete(ResourceKey key, long expectedRevision) {
            return real.delete(key, expectedRevision);
        }

        @Override
        public Future<StoredObject> get(ResourceKey key) {
            return real.get(key);
        }

        @Override
        public Future<ListPage> list(ListRequest request) {
            return real.list(request);
        }

        @Override
        public Future<Long> currentRevision() {
            return real.currentRevision();
        }

        @Override
        public WatchHandle watch(String resource, String namespace, long fromRevision, WatchListener listener) {
            return real.watch(resource, namespace, fromRevision, listener);
        }

        @Override
        public Future<Long> compact() {
            return real.compact();
        }

        @Override
        public void close() {}
    }
}
