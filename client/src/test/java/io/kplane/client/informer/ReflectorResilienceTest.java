package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.KubeList;
import io.kplane.client.ApiServerFixture;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.TestPods;
import io.kplane.client.WatchStream;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The informer never freezes silently: a watch connection dropped without a FIN or RST (bookmarks stop
 * arriving) is replaced after the idle timeout, and a bug that escapes the reflector's loop is logged
 * and followed by a relist instead of ending the reflector while hasSynced() stays true.
 */
class ReflectorResilienceTest {
    // the test server sends a bookmark every second on every watch
    @RegisterExtension
    static final ApiServerFixture server = ApiServerFixture.withNamespaces("resilience");

    private static Pod pod(String name) {
        return TestPods.pod("resilience", name, Map.of("app", "r"));
    }

    @Test
    void aWatchConnectionDroppedSilentlyIsReplacedAfterTheIdleTimeout() throws Exception {
        try (DroppingTcpProxy proxy = new DroppingTcpProxy(server.port())) {
            KubeClient viaProxy = KubeClient.forServer(proxy.url());
            SharedIndexInformer<Pod> informer = new SharedIndexInformer<>(
                    "pods-via-proxy",
                    ListerWatcher.of(viaProxy.pods().inNamespace("resilience"), ListOptions.none()),
                    Clock.system(),
                    ReflectorOptions.DEFAULT.withWatchIdleTimeout(Duration.ofSeconds(3)),
                    Indexers.standard());
            informer.start();
            try {
                assertThat(informer.waitForSync(Duration.ofSeconds(30))).isTrue();
                server.client().pods().inNamespace("resilience").create(pod("before"));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> informer.indexer().getByKey("resilience/before") != null);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> informer.reflector().isWatching());

                proxy.blackholeExisting();
                Instant dropped = Instant.now();
                server.client().pods().inNamespace("resilience").create(pod("after"));
                // the old connection carries nothing any more, not even bookmarks: only a new watch sees "after"
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> informer.indexer().getByKey("resilience/after") != null);
                assertThat(informer.reflector().idleReconnects()).isGreaterThanOrEqualTo(1);
                assertThat(informer.lastEventTime()).isAfter(dropped);
            } finally {
                informer.stop();
            }
        }
    }

    @Test
    void anUnexpectedFailureIsRecoveredByRelistingNotBySilentDeath() throws Exception {
        AtomicInteger watches = new AtomicInteger();
        ListerWatcher<Pod> real =
                ListerWatcher.of(server.client().pods().inNamespace("resilience"), ListOptions.none());
        ListerWatcher<Pod> buggyOnce = new ListerWatcher<>() {
            @Override
            public KubeList<Pod> list(ListOptions options) {
                return real.list(options);
            }

            @Override
            public WatchStream<Pod> watch(ListOptions options) {
                if (watches.incrementAndGet() == 1) {
                    throw new IllegalStateException("simulated bug while opening a watch");
                }
                return real.watch(options);
            }
        };
        SharedIndexInformer<Pod> informer = new SharedIndexInformer<>(
                "pods-buggy",
                buggyOnce,
                Clock.system(),
                ReflectorOptions.DEFAULT.withBackoff(Duration.ofMillis(50), Duration.ofMillis(200)),
                Indexers.standard());
        informer.start();
        try {
            assertThat(informer.waitForSync(Duration.ofSeconds(30))).isTrue();
            server.client().pods().inNamespace("resilience").create(pod("seen-after-bug"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> informer.indexer().getByKey("resilience/seen-after-bug") != null);
            assertThat(informer.reflector().unexpectedFailures()).isEqualTo(1);
            assertThat(informer.reflector().listCount()).isGreaterThanOrEqualTo(2);
        } finally {
            informer.stop();
        }
    }
}
