package io.kplane.store.pg;

import static io.kplane.store.pg.StoreTestSupport.await;
import static io.kplane.store.pg.StoreTestSupport.failure;
import static io.kplane.store.pg.StoreTestSupport.pod;
import static io.kplane.store.pg.StoreTestSupport.podKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Creates fenced by their parent (a namespace): the parent's state is checked in the statement that
 * inserts, under the revision lock, so a create either commits before the parent is marked as being
 * deleted (lower revision) or is refused.
 */
class FencedCreateTest {
    static Vertx vertx;
    static PgConnectOptions db;
    static PgResourceStore store;

    @BeforeAll
    static void open() {
        vertx = Vertx.vertx();
        db = TestPostgres.get().newDatabase();
        store = await(PgResourceStore.open(vertx, StoreTestSupport.fastConfig(db)));
    }

    @AfterAll
    static void close() {
        store.close();
        await(vertx.close());
    }

    static ResourceKey nsKey(String name) {
        return new ResourceKey("namespaces", "", name);
    }

    static ObjectNode namespace(String name, boolean deleting) {
        ObjectNode ns = Json.mapper().createObjectNode();
        ns.put("apiVersion", "v1").put("kind", "Namespace");
        ObjectNode meta = ns.putObject("metadata").put("name", name);
        if (deleting) {
            meta.put("deletionTimestamp", "2026-01-01T00:00:00Z");
        }
        ns.putObject("status").put("phase", deleting ? "Terminating" : "Active");
        return ns;
    }

    @Test
    void missingParentIsRefusedAndTakesNoRevision() {
        long before = await(store.currentRevision());
        Throwable refused =
                failure(store.create(podKey("nowhere", "p"), pod("nowhere", "p", "Pending"), nsKey("nowhere")));
        assertThat(refused).isInstanceOf(StoreException.ParentMissing.class);
        assertThat(((StoreException.ParentMissing) refused).parent()).isEqualTo(nsKey("nowhere"));
        assertThat(await(store.currentRevision())).isEqualTo(before);
        assertThat(failure(store.get(podKey("nowhere", "p")))).isInstanceOf(StoreException.NotFound.class);
    }

    @Test
    void liveParentAdmitsTerminatingParentRefusesEvenBeforeAlreadyExists() {
        StoredObject ns = await(store.create(nsKey("fa"), namespace("fa", false)));
        await(store.create(podKey("fa", "p"), pod("fa", "p", "Pending"), nsKey("fa")));
        assertThat(failure(store.create(podKey("fa", "p"), pod("fa", "p", "Pending"), nsKey("fa"))))
                .isInstanceOf(StoreException.AlreadyExists.class);

        await(store.update(nsKey("fa"), namespace("fa", true), ns.revision()));
        assertThat(failure(store.create(podKey("fa", "q"), pod("fa", "q", "Pending"), nsKey("fa"))))
                .isInstanceOf(StoreException.ParentTerminating.class);
        // admission before storage, as in Kubernetes: Forbidden wins over AlreadyExists
        assertThat(failure(store.create(podKey("fa", "p"), pod("fa", "p", "Pending"), nsKey("fa"))))
                .isInstanceOf(StoreException.ParentTerminating.class);
        // updates and deletes in a terminating parent go on (the cascade needs them)
        StoredObject p = await(store.get(podKey("fa", "p")));
        await(store.update(podKey("fa", "p"), pod("fa", "p", "Running"), p.revision()));
        await(store.delete(podKey("fa", "p"), 0));
    }

    /** Queued without waiting, one batch: the mark and the creates after it are cut into separate rounds. */
    @Test
    void createQueuedAfterTheMarkInOneBatchIsRefused() {
        StoredObject ns = await(store.create(nsKey("fb"), namespace("fb", false)));
        Future<StoredObject> before = store.create(podKey("fb", "before"), pod("fb", "before", "Pending"), nsKey("fb"));
        Future<StoredObject> mark = store.update(nsKey("fb"), namespace("fb", true), ns.revision());
        Future<StoredObject> after = store.create(podKey("fb", "after"), pod("fb", "after", "Pending"), nsKey("fb"));
        assertThat(await(before).revision()).isLessThan(await(mark).revision());
        assertThat(failure(after)).isInstanceOf(StoreException.ParentTerminating.class);
    }

    /**
     * Many creates queued around the mark, batched however the writer cuts them: exactly those queued
     * before it commit, all with revisions below the mark's, and every later one is refused. A cascade
     * that lists the parent's children at or after the mark's revision therefore sees every child that
     * will ever exist. (Creates from many threads through the API server: NamespaceFenceTest.)
     */
    @Test
    void createsQueuedAroundTheMarkCommitBeforeItOrAreRefused() {
        for (int round = 0; round < 3; round++) {
            String name = "race" + round;
            StoredObject ns = await(store.create(nsKey(name), namespace(name, false)));
            List<Future<StoredObject>> creates = new ArrayList<>();
            Future<StoredObject> mark = null;
            for (int i = 0; i < 300; i++) {
                if (i == 150) {
                    mark = store.update(nsKey(name), namespace(name, true), ns.revision());
                }
                String pod = "p" + i;
                creates.add(store.create(podKey(name, pod), pod(name, pod, "Pending"), nsKey(name)));
            }
            long markRevision = await(mark).revision();
            for (int i = 0; i < creates.size(); i++) {
                if (i < 150) {
                    assertThat(await(creates.get(i)).revision()).isLessThan(markRevision);
                } else {
                    assertThat(failure(creates.get(i))).isInstanceOf(StoreException.ParentTerminating.class);
                }
            }
        }
    }
}
