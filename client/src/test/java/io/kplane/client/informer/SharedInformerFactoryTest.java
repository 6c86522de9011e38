package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.ApiServerFixture;
import io.kplane.client.TestPods;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SharedInformerFactoryTest {
    @RegisterExtension
    static final ApiServerFixture server = ApiServerFixture.withNamespaces("factory");

    @Test
    void sharesOneInformerPerResourceWithPodIndexes() throws Exception {
        SharedInformerFactory factory = new SharedInformerFactory(server.client(), Clock.system());
        try {
            SharedIndexInformer<Pod> pods = factory.informerFor(Pod.class);
            assertThat(factory.informerFor(Pod.class)).isSameAs(pods);
            SharedIndexInformer<Job> jobs = factory.informerFor(Job.class);
            Pod owned = TestPods.pod("factory", "owned", Map.of("app", "x"));
            owned = owned.withMetadata(owned.metadata()
                    .withOwnerReferences(List.of(new OwnerReference("batch/v1", "Job", "j", "uid-1", true, true))));
            server.client().pods().inNamespace("factory").create(owned);
            factory.start();
            assertThat(factory.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
            assertThat(jobs.hasSynced()).isTrue();
            assertThat(pods.lister().namespace("factory").ownedBy("uid-1"))
                    .extracting(Pod::name)
                    .containsExactly("owned");

            server.client().pods().inNamespace("factory").bind("owned", "node-a");
            await().atMost(Duration.ofSeconds(10)).until(() -> pods.indexer()
                    .indexKeys(Indexers.NODE_NAME, "node-a")
                    .contains("factory/owned"));
            assertThat(pods.indexer().indexKeys(Indexers.LABEL, "app=x")).containsExactly("factory/owned");
        } finally {
            factory.shutdown();
        }
    }

    @Test
    void bookmarksMoveTheResourceVersionOfAQuietWatchForward() throws Exception {
        TestPods.namespace(server.client(), "quiet");
        TestPods.namespace(server.client(), "busy");
        SharedInformerFactory factory =
                new SharedInformerFactory(server.client(), Clock.system(), "quiet", ReflectorOptions.DEFAULT);
        try {
            SharedIndexInformer<Pod> quiet = factory.informerFor(Pod.class);
            factory.start();
            assertThat(factory.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
            Pod elsewhere = server.client().pods().inNamespace("busy").create(TestPods.pod("busy", "noise", Map.of()));
            long written = Long.parseLong(elsewhere.metadata().resourceVersion());
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> Long.parseLong(quiet.lastSyncResourceVersion()) >= written);
            assertThat(quiet.indexer().size()).isZero();
        } finally {
            factory.shutdown();
        }
    }
}
