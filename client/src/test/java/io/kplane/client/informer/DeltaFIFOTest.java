package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.core.Pod;
import io.kplane.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaFIFOTest {
    private final CacheIndexer<Pod> known = CacheIndexer.withStandardIndexes();
    private final DeltaFIFO<Pod> fifo = new DeltaFIFO<>(known);

    static Pod pod(String name, String rv) {
        return new Pod(null, null, ObjectMeta.named("ns", name).withResourceVersion(rv), null, null);
    }

    private List<Delta<Pod>> popOne() throws InterruptedException {
        List<Delta<Pod>> got = new ArrayList<>();
        assertThat(fifo.pop((deltas, initial) -> got.addAll(deltas))).isTrue();
        return got;
    }

    @Test
    void deltasOfOneKeyAccumulateAndKeysStayFifo() throws Exception {
        fifo.add(pod("a", "1"));
        fifo.add(pod("b", "2"));
        fifo.update(pod("a", "3"));
        assertThat(fifo.queuedKeys()).containsExactly("ns/a", "ns/b");
        List<Delta<Pod>> a = popOne();
        assertThat(a).extracting(Delta::type).containsExactly(DeltaType.ADDED, DeltaType.UPDATED);
        assertThat(a.get(1).object().metadata().resourceVersion()).isEqualTo("3");
        assertThat(popOne()).extracting(d -> d.object().name()).containsExactly("b");
    }

    @Test
    void repeatedDeletesCollapseKeepingTheKnownFinalState() throws Exception {
        known.add(pod("a", "1"));
        fifo.delete(pod("a", "2"));
        fifo.replace(List.of(), "5");
        List<Delta<Pod>> deltas = popOne();
        assertThat(deltas).hasSize(1);
        assertThat(deltas.get(0).type()).isEqualTo(DeltaType.DELETED);
        assertThat(deltas.get(0).finalStateUnknown())
                .as("the real delete beats the tombstone")
                .isFalse();
        assertThat(deltas.get(0).object().metadata().resourceVersion()).isEqualTo("2");
    }

    @Test
    void deleteOfAnObjectNobodyKnowsIsIgnored() {
        fifo.delete(pod("ghost", "1"));
        assertThat(fifo.queuedKeys()).isEmpty();
    }

    @Test
    void replaceEmitsReplacedForListedAndTombstonesForVanishedObjects() throws Exception {
        known.add(pod("stays", "1"));
        known.add(pod("gone", "1"));
        fifo.add(pod("queued-then-gone", "2"));
        fifo.replace(List.of(pod("stays", "1"), pod("new", "3")), "10");

        assertThat(fifo.queuedKeys()).containsExactlyInAnyOrder("ns/stays", "ns/new", "ns/queued-then-gone", "ns/gone");
        assertThat(fifo.deltas("ns/stays")).extracting(Delta::type).containsExactly(DeltaType.REPLACED);
        assertThat(fifo.deltas("ns/gone")).singleElement().satisfies(d -> {
            assertThat(d.type()).isEqualTo(DeltaType.DELETED);
            assertThat(d.finalStateUnknown()).isTrue();
            assertThat(d.object().metadata().resourceVersion()).isEqualTo("1");
        });
        assertThat(fifo.deltas("ns/queued-then-gone"))
                .extracting(Delta::type, Delta::finalStateUnknown)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(DeltaType.ADDED, false),
                        org.assertj.core.groups.Tuple.tuple(DeltaType.DELETED, true));
    }

    @Test
    void hasSyncedOnceTheFirstReplaceIsFullyPopped() throws Exception {
        assertThat(fifo.hasSynced()).isFalse();
        fifo.replace(List.of(pod("a", "1"), pod("b", "1")), "1");
        assertThat(fifo.hasSynced()).isFalse();
        List<Boolean> initialFlags = new ArrayList<>();
        fifo.pop((d, initial) -> initialFlags.add(initial));
        assertThat(fifo.hasSynced()).isFalse();
        fifo.pop((d, initial) -> initialFlags.add(initial));
        assertThat(fifo.hasSynced()).isTrue();
        assertThat(initialFlags).containsExactly(true, true);
        fifo.add(pod("c", "2"));
        fifo.pop((d, initial) -> initialFlags.add(initial));
        assertThat(initialFlags).last().isEqualTo(false);
    }

    @Test
    void emptyReplaceSyncsImmediately() {
        fifo.replace(List.of(), "1");
        assertThat(fifo.hasSynced()).isTrue();
    }

    @Test
    void resyncQueuesSyncForCachedObjectsWithoutPendingDeltas() throws Exception {
        known.add(pod("a", "1"));
        known.add(pod("b", "1"));
        fifo.update(pod("b", "2"));
        fifo.resync();
        assertThat(fifo.deltas("ns/a")).extracting(Delta::type).containsExactly(DeltaType.SYNC);
        assertThat(fifo.deltas("ns/b")).extracting(Delta::type).containsExactly(DeltaType.UPDATED);
    }

    @Test
    void closeReleasesPoppers() throws Exception {
        fifo.close();
        assertThat(fifo.pop((d, i) -> {})).isFalse();
    }
}
