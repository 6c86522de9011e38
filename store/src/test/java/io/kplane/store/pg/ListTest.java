package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ListTest {
    static Vertx vertx;
    static PgResourceStore store;

    @BeforeAll
    static void open() {
        vertx = Vertx.vertx();
        store = await(PgResourceStore.open(
                vertx, StoreTestSupport.fastConfig(TestPostgres.get().newDatabase())));
        for (String ns : List.of("a", "b")) {
            for (int i = 0; i < 15; i++) {
                String name = String.format("p%02d", i);
                await(store.create(podKey(ns, name), pod(ns, name, i % 3 == 0 ? "Running" : "Pending")));
            }
        }
        await(store.create(new io.kplane.store.ResourceKey("jobs.batch", "a", "j1"), pod("a", "j1", "x")));
    }

    @AfterAll
    static void close() {
        store.close();
        await(vertx.close());
    }

    private static List<String> names(ListPage page) {
        return page.items().stream()
                .map(o -> o.key().namespace() + "/" + o.key().name())
                .toList();
    }

    @Test
    void listsOneResourceOrderedAtTheCurrentRevision() {
        ListPage all = await(store.list(ListRequest.all("pods", null)));
        assertThat(all.items()).hasSize(30);
        assertThat(all.continueToken()).isNull();
        assertThat(all.revision()).isEqualTo(await(store.currentRevision()));
        assertThat(names(all).get(0)).isEqualTo("a/p00");
        assertThat(names(all).get(29)).isEqualTo("b/p14");
        for (StoredObject o : all.items()) {
            assertThat(o.object().path("metadata").path("resourceVersion").asText())
                    .isEqualTo(Long.toString(o.revision()));
            assertThat(o.revision()).isLessThanOrEqualTo(all.revision());
        }
        assertThat(await(store.list(ListRequest.all("pods", "b"))).items())
                .hasSize(15)
                .allMatch(o -> o.key().namespace().equals("b"));
    }

    @Test
    void pagesWalkTheWholeListExactlyOnce() {
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        long revision = -1;
        do {
            ListPage page = await(store.list(new ListRequest("pods", null, o -> true, 7, token)));
            if (revision < 0) {
                revision = page.revision();
            }
            assertThat(page.revision()).isEqualTo(revision);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(7);
            seen.addAll(names(page));
            token = page.continueToken();
            pages++;
        } while (token != null);
        assertThat(pages).isEqualTo(5);
        assertThat(seen).hasSize(30).doesNotHaveDuplicates();
    }

    @Test
    void filterIsAppliedBeforeTheLimit() {
        ListRequest running = new ListRequest(
                "pods", null, o -> o.path("status").path("phase").asText().equals("Running"), 4, null);
        ListPage first = await(store.list(running));
        assertThat(first.items())
                .hasSize(4)
                .allMatch(o -> o.object().path("status").path("phase").asText().equals("Running"));
        assertThat(first.continueToken()).isNotNull();
        ListPage second = await(store.list(new ListRequest("pods", null, running.filter(), 4, first.continueToken())));
        assertThat(second.items()).hasSize(4);
        assertThat(second.continueToken()).isNotNull();
        ListPage third = await(store.list(new ListRequest("pods", null, running.filter(), 4, second.continueToken())));
        // 5 running pods per namespace (p00, p03, p06, p09, p12): 4 + 4 + 2.
        assertThat(third.items()).hasSize(2);
        assertThat(third.continueToken()).isNull();
    }

    private static io.kplane.store.ResourceKey cm(String name) {
        return new io.kplane.store.ResourceKey("configmaps", "snap", name);
    }

    @Test
    void continuePagesShowTheSnapshotOfTheFirstPage() {
        for (int i = 0; i < 4; i++) {
            await(store.create(cm("s" + i), pod("snap", "s" + i, "Pending")));
        }
        ListPage first = await(store.list(new ListRequest("configmaps", "snap", o -> true, 1, null)));
        assertThat(names(first)).containsExactly("snap/s0");
        // Change the rest after the first page: the next pages must still show the state at its revision.
        StoredObject s1 = await(store.get(cm("s1")));
        await(store.update(cm("s1"), pod("snap", "s1", "Running"), 0));
        await(store.delete(cm("s2"), 0));
        await(store.create(cm("s25"), pod("snap", "s25", "Pending")));
        await(store.update(cm("s3"), pod("snap", "s3", "Running"), 0));
        await(store.delete(cm("s3"), 0));

        ListPage rest = await(store.list(new ListRequest("configmaps", "snap", o -> true, 0, first.continueToken())));
        assertThat(rest.revision()).isEqualTo(first.revision());
        assertThat(names(rest)).containsExactly("snap/s1", "snap/s2", "snap/s3");
        assertThat(rest.items())
                .allMatch(o -> o.object().path("status").path("phase").asText().equals("Pending"));
        assertThat(rest.items().get(0).revision()).isEqualTo(s1.revision());
        assertThat(rest.items().get(0).object()).isEqualTo(s1.object());

        ListPage now = await(store.list(ListRequest.all("configmaps", "snap")));
        assertThat(names(now)).containsExactly("snap/s0", "snap/s1", "snap/s25");
    }

    /**
     * A continue page longer than the store's 500-row read chunk, where keys changed after the first
     * page lie all through it: unchanged objects and the event log's earlier states must interleave in
     * key order across chunk boundaries (each chunk's query limits the unchanged objects before the union).
     */
    @Test
    void continuePagesAcrossChunksShowTheSnapshotOfTheFirstPage() {
        ResourceKey[] keys = new ResourceKey[1200];
        List<Future<StoredObject>> creates = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new ResourceKey("secrets", "chunks", String.format("k%04d", i));
            creates.add(store.create(keys[i], pod("chunks", keys[i].name(), "Pending")));
        }
        await(Future.all(creates));
        ListPage first = await(store.list(new ListRequest("secrets", "chunks", o -> true, 1, null)));
        List<Future<StoredObject>> changes = new ArrayList<>();
        for (int i = 1; i < keys.length; i++) {
            if (i % 7 == 0) {
                changes.add(store.delete(keys[i], 0));
            } else if (i % 3 == 0) {
                changes.add(store.update(keys[i], pod("chunks", keys[i].name(), "Running"), 0));
            } else if (i % 11 == 0) {
                ResourceKey added = new ResourceKey("secrets", "chunks", keys[i].name() + "a");
                changes.add(store.create(added, pod("chunks", added.name(), "Running")));
            }
        }
        await(Future.all(changes));

        ListPage rest = await(store.list(new ListRequest("secrets", "chunks", o -> true, 0, first.continueToken())));
        assertThat(rest.revision()).isEqualTo(first.revision());
        List<String> expected = new ArrayList<>();
        for (int i = 1; i < keys.length; i++) {
            expected.add("chunks/" + keys[i].name());
        }
        assertThat(names(rest)).containsExactlyElementsOf(expected);
        assertThat(rest.items())
                .allMatch(o -> o.object().path("status").path("phase").asText().equals("Pending"))
                .allMatch(o -> o.revision() <= first.revision());
    }

    @Test
    void foreignOrGarbledTokenIsBadRequest() {
        ListPage jobs = await(store.list(new ListRequest("pods", null, o -> true, 1, null)));
        assertThat(failure(store.list(new ListRequest("jobs.batch", null, o -> true, 1, jobs.continueToken()))))
                .isInstanceOf(StoreException.BadRequest.class);
        assertThat(failure(store.list(new ListRequest("pods", null, o -> true, 1, "not-a-token!"))))
                .isInstanceOf(StoreException.BadRequest.class);
    }
}
