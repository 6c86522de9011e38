package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.TestPods;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer against a real API server and PostgreSQL: after thousands of random creates, updates and
 * deletes — across an API server restart and a log compaction that forces a 410 relist — the cache and
 * the view built from handler callbacks both equal the server's state.
 */
class InformerConsistencyTest {
    private static final Logger log = LoggerFactory.getLogger(InformerConsistencyTest.class);
    private static final String NS = "churn";

    private TestApiServer api;
    private SharedIndexInformer<Pod> informer;

    @AfterEach
    void tearDown() {
        if (informer != null) {
            informer.stop();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void cacheEqualsServerAfterRandomChurnRestartAndCompaction() throws Exception {
        // compaction only when the test asks for it, and then of everything up to now
        api = TestApiServer.start(c -> c.withCompaction(Duration.ZERO, Duration.ofDays(1)), o -> {});
        KubeClient client = KubeClient.forServer(api.url());
        TestPods.namespace(client, NS);
        ResourceClient<Pod> pods = client.pods().inNamespace(NS);

        GatedListerWatcher<Pod> source = new GatedListerWatcher<>(ListerWatcher.of(pods));
        ReflectorOptions options =
                ReflectorOptions.DEFAULT.withPageSize(50).withBackoff(Duration.ofMillis(50), Duration.ofMillis(500));
        informer = new SharedIndexInformer<>("pods", source, Clock.system(), options, Indexers.standard());
        Map<String, String> handlerView = new ConcurrentHashMap<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod obj, boolean initial) {
                handlerView.put(obj.key(), obj.metadata().resourceVersion());
            }

            @Override
            public void onUpdate(Pod oldObj, Pod newObj) {
                handlerView.put(newObj.key(), newObj.metadata().resourceVersion());
            }

            @Override
            public void onDelete(Pod obj, boolean finalStateUnknown) {
                handlerView.remove(obj.key());
            }
        });

        Churn churn = new Churn(pods, new Random(42));
        churn.run(200);
        informer.start();
        assertThat(informer.waitForSync(Duration.ofSeconds(30))).isTrue();

        churn.run(1000);
        assertConverged(pods, handlerView);

        log.info("phase 2: restart the API server under the informer while writes go on");
        int before = churn.ops;
        CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> churn.run(800));
        await().atMost(Duration.ofSeconds(60)).until(() -> churn.ops > before + 200);
        api.restart();
        writes.get(120, TimeUnit.SECONDS);
        assertConverged(pods, handlerView);
        int listsBefore = informer.reflector().listCount();

        log.info("phase 3: compact the log while the informer is away (410 -> relist)");
        source.close();
        api.restart();
        churn.run(600);
        api.store().compact().await(30, TimeUnit.SECONDS);
        source.open();
        churn.run(400);
        assertConverged(pods, handlerView);
        assertThat(informer.reflector().listCount()).as("relisted after 410").isGreaterThan(listsBefore);
        log.info("ops: {} ({} failed while the server was away)", churn.ops, churn.failures);
        assertThat(churn.ops).isGreaterThanOrEqualTo(3000);
    }

    private void assertConverged(ResourceClient<Pod> pods, Map<String, String> handlerView) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    Map<String, String> server = serverState(pods);
                    assertThat(cacheState()).isEqualTo(server);
                    assertThat(handlerView).isEqualTo(server);
                });
    }

    private Map<String, String> serverState(ResourceClient<Pod> pods) {
        return pods.listAll(ListOptions.none(), 500).stream()
                .collect(Collectors.toMap(Pod::key, p -> p.metadata().resourceVersion()));
    }

    private Map<String, String> cacheState() {
        return informer.indexer().list().stream()
                .collect(Collectors.toMap(Pod::key, p -> p.metadata().resourceVersion()));
    }

    /** Random creates, label updates and deletes; failures while the server restarts are counted and skipped. */
    private static final class Churn {
        private final ResourceClient<Pod> pods;
        private final Random random;
        private final List<String> names = new ArrayList<>();
        private int next;
        volatile int ops;
        volatile int failures;

        Churn(ResourceClient<Pod> pods, Random random) {
            this.pods = pods;
            this.random = random;
        }

        /** Performs {@code count} successful random writes; writes refused while the server is away are retried. */
        void run(int count) {
            int done = 0;
            while (done < count) {
                int dice = random.nextInt(10);
                try {
                    if (names.size() < 20 || (dice < 4 && names.size() < 400)) {
                        String name = "p" + next;
                        try {
                            pods.create(TestPods.pod(NS, name, Map.of("gen", "0")));
                        } catch (ApiException e) {
                            if (!e.isAlreadyExists()) {
                                throw e; // AlreadyExists: an earlier attempt committed but its answer was lost
                            }
                        }
                        next++;
                        names.add(name);
                    } else if (dice < 8) {
                        int index = random.nextInt(names.size());
                        try {
                            pods.patch(
                                    names.get(index),
                                    PatchType.MERGE,
                                    "{\"metadata\":{\"labels\":{\"gen\":\"" + ops + "\"}}}");
                        } catch (ApiException e) {
                            if (!e.isNotFound()) {
                                throw e;
                            }
                            names.remove(index); // a delete whose answer was lost
                        }
                    } else {
                        int index = random.nextInt(names.size());
                        try {
                            pods.delete(names.get(index), DeleteOptions.gracePeriod(0));
                        } catch (ApiException e) {
                            if (!e.isNotFound()) {
                                throw e;
                            }
                        }
                        names.remove(index);
                    }
                    done++;
                    ops++;
                } catch (KubeClientException e) {
                    failures++;
                }
            }
        }
    }
}
