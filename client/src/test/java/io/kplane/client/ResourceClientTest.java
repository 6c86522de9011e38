package io.kplane.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.KubeList;
import io.kplane.api.meta.WatchEvent;
import io.kplane.api.patch.PatchType;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ResourceClientTest {
    @RegisterExtension
    static final ApiServerFixture server =
            ApiServerFixture.withNamespaces("crud", "missing", "paging", "watching", "idle", "patching", "bulk");

    @Test
    void createGetUpdateAndConflict() {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("crud");
        Pod created = pods.create(TestPods.pod("crud", "p1", Map.of("app", "x")));
        assertThat(created.uid()).isNotBlank();
        assertThat(created.metadata().resourceVersion()).isNotBlank();

        Pod fetched = pods.get("p1");
        assertThat(fetched.uid()).isEqualTo(created.uid());

        Pod relabelled = pods.update(fetched.withMetadata(fetched.metadata().withLabels(Map.of("app", "y"))));
        assertThat(relabelled.metadata().labels()).containsEntry("app", "y");

        assertThatThrownBy(() -> pods.update(fetched)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(409);
            assertThat(e.isConflict()).isTrue();
            assertThat(e.status()).isNotNull();
        });
        assertThatThrownBy(() -> pods.create(TestPods.pod("crud", "p1", Map.of())))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.isAlreadyExists()).isTrue());
    }

    @Test
    void notFoundIsAnApiExceptionWithReasonAndFindIsEmpty() {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("missing");
        assertThatThrownBy(() -> pods.get("nope")).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(404);
            assertThat(e.reason()).isEqualTo("NotFound");
            assertThat(e.isNotFound()).isTrue();
        });
        assertThat(pods.find("nope")).isEmpty();
    }

    @Test
    void listWithLabelSelectorAndPaging() {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("paging");
        for (int i = 0; i < 7; i++) {
            pods.create(TestPods.pod("paging", "p" + i, Map.of("parity", i % 2 == 0 ? "even" : "odd")));
        }
        KubeList<Pod> firstPage = pods.list(ListOptions.none().withLimit(3L));
        assertThat(firstPage.items()).hasSize(3);
        assertThat(firstPage.metadata()._continue()).isNotBlank();
        assertThat(pods.listAll(ListOptions.none(), 3)).hasSize(7);
        assertThat(pods.list(ListOptions.labelSelector("parity=even")).items()).hasSize(4);
        assertThat(pods.list(ListOptions.fieldSelector("metadata.name=p3")).items())
                .extracting(Pod::name)
                .containsExactly("p3");
        assertThat(server.client()
                        .pods()
                        .list(ListOptions.labelSelector("parity=odd"))
                        .items())
                .as("all namespaces")
                .hasSize(3);
    }

    @Test
    void watchStreamsEventsFromAResourceVersion() throws Exception {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("watching");
        String rv = pods.list(ListOptions.none()).metadata().resourceVersion();
        try (WatchStream<Pod> watch = pods.watch(ListOptions.none().withResourceVersion(rv))) {
            pods.create(TestPods.pod("watching", "w1", Map.of()));
            pods.patch("w1", PatchType.MERGE, "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");
            pods.delete("w1", DeleteOptions.gracePeriod(0));
            List<String> seen = new ArrayList<>();
            while (seen.size() < 3) {
                WatchEvent<Pod> event = watch.next();
                if (event == null) {
                    break;
                }
                if (!WatchEvent.BOOKMARK.equals(event.type())) {
                    seen.add(event.type() + " " + event.object().name());
                }
            }
            assertThat(seen).containsExactly("ADDED w1", "MODIFIED w1", "DELETED w1");
        }
    }

    @Test
    void closingAWatchUnblocksTheReader() throws Exception {
        WatchStream<Pod> watch = server.client().pods().inNamespace("idle").watch(ListOptions.none());
        Thread closer = new Thread(() -> watch.close());
        java.util.concurrent.CompletableFuture<WatchEvent<Pod>> next =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    WatchEvent<Pod> e;
                    do {
                        e = watch.next();
                    } while (e != null && WatchEvent.BOOKMARK.equals(e.type()));
                    return e;
                });
        closer.start();
        assertThat(next).succeedsWithin(java.time.Duration.ofSeconds(10)).isNull();
    }

    @Test
    void patchFormatsStatusSubresourceBindAndDelete() {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("patching");
        pods.create(TestPods.pod("patching", "p", Map.of("a", "1")));

        Pod merged = pods.patch("p", PatchType.MERGE, "{\"metadata\":{\"labels\":{\"b\":\"2\"}}}");
        assertThat(merged.metadata().labels()).containsEntry("a", "1").containsEntry("b", "2");
        Pod jsonPatched = pods.patch("p", PatchType.JSON, "[{\"op\":\"remove\",\"path\":\"/metadata/labels/a\"}]");
        assertThat(jsonPatched.metadata().labels()).doesNotContainKey("a");
        Pod strategic = pods.patch("p", PatchType.STRATEGIC_MERGE, "{\"metadata\":{\"labels\":{\"c\":\"3\"}}}");
        assertThat(strategic.metadata().labels()).containsEntry("c", "3");

        PodStatus running = PodStatusBuilder.builder().phase("Running").build();
        Pod withStatus = pods.updateStatus(strategic.withStatus(running));
        assertThat(withStatus.phase()).isEqualTo("Running");

        pods.bind("p", "node-1");
        assertThat(pods.get("p").nodeName()).isEqualTo("node-1");

        pods.delete("p", DeleteOptions.gracePeriod(0));
        assertThat(pods.find("p")).isEmpty();
        assertThatThrownBy(() -> pods.delete("p"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.isNotFound()).isTrue());
    }

    @Test
    void deleteCollectionBySelector() {
        ResourceClient<Pod> pods = server.client().pods().inNamespace("bulk");
        pods.create(TestPods.pod("bulk", "keep", Map.of("group", "b")));
        pods.create(TestPods.pod("bulk", "drop1", Map.of("group", "a")));
        pods.create(TestPods.pod("bulk", "drop2", Map.of("group", "a")));
        pods.deleteCollection(ListOptions.labelSelector("group=a"), DeleteOptions.gracePeriod(0));
        assertThat(pods.list()).extracting(Pod::name).containsExactly("keep");
    }

    @Test
    void unreachableServerIsAConnectionErrorNamingTheUrl() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        KubeClient nowhere = KubeClient.forServer("http://127.0.0.1:" + port);
        assertThatThrownBy(() -> nowhere.pods().list())
                .isInstanceOf(ApiConnectionException.class)
                .hasMessageStartingWith("cannot reach the apiserver at URL: http://127.0.0.1:" + port);
    }

    @Test
    void namespacedCallsWithoutNamespaceFailClearly() {
        assertThatThrownBy(() -> server.client().pods().get("x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("namespaced");
    }
}
