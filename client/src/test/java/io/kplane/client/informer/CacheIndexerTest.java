package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.meta.LabelSelector;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.OwnerReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheIndexerTest {
    private final CacheIndexer<Pod> cache = CacheIndexer.withStandardIndexes();

    private static Pod pod(String ns, String name, Map<String, String> labels, String ownerUid) {
        ObjectMeta meta = ObjectMeta.named(ns, name)
                .withLabels(labels)
                .withOwnerReferences(
                        ownerUid == null
                                ? null
                                : List.of(new OwnerReference("batch/v1", "Job", "j", ownerUid, true, true)));
        return new Pod(null, null, meta, null, null);
    }

    @Test
    void indexesFollowUpdatesAndDeletes() {
        cache.add(pod("a", "p1", Map.of("app", "x"), "job-1"));
        cache.add(pod("a", "p2", Map.of("app", "y"), "job-1"));
        cache.add(pod("b", "p3", Map.of("app", "x"), null));

        assertThat(cache.byIndex(Indexers.NAMESPACE, "a")).hasSize(2);
        assertThat(cache.indexKeys(Indexers.LABEL, "app=x")).containsExactlyInAnyOrder("a/p1", "b/p3");
        assertThat(cache.indexKeys(Indexers.OWNER_UID, "job-1")).containsExactlyInAnyOrder("a/p1", "a/p2");

        cache.update(pod("a", "p1", Map.of("app", "y"), null));
        assertThat(cache.indexKeys(Indexers.LABEL, "app=x")).containsExactly("b/p3");
        assertThat(cache.indexKeys(Indexers.OWNER_UID, "job-1")).containsExactly("a/p2");

        cache.deleteByKey("a/p2");
        assertThat(cache.indexValues(Indexers.OWNER_UID)).isEmpty();
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void indexersAddedLaterIndexExistingObjects() {
        Pod pod = pod("a", "p1", Map.of(), null).withSpec(PodSpecBuilderHolder.nodeName("node-1"));
        cache.add(pod);
        cache.addIndexers(Map.of(Indexers.NODE_NAME, Indexers.field(Pod::nodeName)));
        assertThat(cache.indexKeys(Indexers.NODE_NAME, "node-1")).containsExactly("a/p1");
    }

    @Test
    void listerQueriesByNamespaceLabelsSelectorAndOwner() {
        cache.add(pod("a", "p1", Map.of("app", "x", "tier", "web"), "job-1"));
        cache.add(pod("a", "p2", Map.of("app", "y"), "job-2"));
        cache.add(pod("b", "p3", Map.of("app", "x"), "job-1"));
        Lister<Pod> lister = new Lister<>(cache);

        assertThat(lister.namespace("a").list()).extracting(Pod::name).containsExactlyInAnyOrder("p1", "p2");
        assertThat(lister.list(Map.of("app", "x"))).extracting(Pod::name).containsExactlyInAnyOrder("p1", "p3");
        assertThat(lister.namespace("a").ownedBy("job-1")).extracting(Pod::name).containsExactly("p1");
        LabelSelector selector = new LabelSelector(
                Map.of("app", "x"), List.of(new LabelSelector.Requirement("tier", "In", List.of("web", "db"))));
        assertThat(lister.list(selector)).extracting(Pod::name).containsExactly("p1");
        assertThat(lister.get("a", "p2")).isPresent();
        assertThat(lister.namespace("b").get("p1")).isEmpty();
    }

    /** Builds a PodSpec with only nodeName set, whatever the record's arity. */
    static final class PodSpecBuilderHolder {
        static PodSpec nodeName(String node) {
            return io.kplane.api.core.PodSpecBuilder.builder().nodeName(node).build();
        }
    }
}
