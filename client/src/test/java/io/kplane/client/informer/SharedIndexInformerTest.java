package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SharedIndexInformerTest {
    private final FakeListerWatcher source = new FakeListerWatcher();
    private final ReflectorOptions options =
            ReflectorOptions.DEFAULT.withPageSize(2).withBackoff(Duration.ofMillis(10), Duration.ofMillis(50));
    private SharedIndexInformer<Pod> informer;

    /** Records handler calls as readable strings. */
    static final class Recorder implements ResourceEventHandler<Pod> {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onAdd(Pod obj, boolean initial) {
            calls.add("add " + obj.name() + (initial ? " initial" : ""));
        }

        @Override
        public void onUpdate(Pod oldObj, Pod newObj) {
            calls.add("update " + newObj.name() + " " + oldObj.metadata().resourceVersion() + "->"
                    + newObj.metadata().resourceVersion());
        }

        @Override
        public void onDelete(Pod obj, boolean finalStateUnknown) {
            calls.add("delete " + obj.name() + (finalStateUnknown ? " tombstone" : ""));
        }
    }

    @AfterEach
    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    private SharedIndexInformer<Pod> informer(Clock clock) {
        informer = new SharedIndexInformer<>("pods", source, clock, options, Indexers.standard());
        return informer;
    }

    @Test
    void pagedInitialListThenLiveEvents() throws Exception {
        for (int i = 0; i < 5; i++) {
            source.put("p" + i, Map.of());
        }
        Recorder recorder = new Recorder();
        SharedIndexInformer<Pod> inf = informer(Clock.system());
        SharedInformer.HandlerRegistration registration = inf.addEventHandler(recorder);
        inf.start();
        assertThat(inf.waitForSync(Duration.ofSeconds(10))).isTrue();
        await().until(registration::hasSynced);
        assertThat(recorder.calls)
                .containsExactlyInAnyOrder(
                        "add p0 initial", "add p1 initial", "add p2 initial", "add p3 initial", "add p4 initial");
        assertThat(inf.indexer().size()).isEqualTo(5);

        source.put("p1", Map.of("changed", "yes"));
        source.remove("p2");
        source.put("p9", Map.of());
        await().until(() -> recorder.calls.size() == 8);
        assertThat(recorder.calls.subList(5, 8)).containsExactly("update p1 2->6", "delete p2", "add p9");
        assertThat(inf.lastSyncResourceVersion()).isEqualTo("8");
        assertThat(source.watchRequests).allSatisfy(o -> {
            assertThat(o.allowWatchBookmarks()).isTrue();
            assertThat(o.timeoutSeconds()).isBetween(300L, 599L);
        });
    }

    @Test
    void rewatchesFromLastResourceVersionAfterABrokenConnection() throws Exception {
        source.put("a", Map.of());
        Recorder recorder = new Recorder();
        SharedIndexInformer<Pod> inf = informer(Clock.system());
        inf.addEventHandler(recorder);
        inf.start();
        inf.waitForSync(Duration.ofSeconds(10));
        source.put("b", Map.of());
        await().until(() -> recorder.calls.size() == 2);
        source.breakWatches();
        source.put("c", Map.of());
        await().until(() -> recorder.calls.size() == 3);
        assertThat(recorder.calls).containsExactly("add a initial", "add b", "add c");
        assertThat(source.lists.get()).as("no relist needed").isEqualTo(1);
        assertThat(source.watchRequests).extracting(o -> o.resourceVersion()).containsExactly("1", "2");
    }

    @Test
    void relistAfterGoneEmitsOnlyTheDifferenceWithTombstonesForMissedDeletes() throws Exception {
        for (String name : List.of("same", "changed", "deleted")) {
            source.put(name, Map.of());
        }
        Recorder recorder = new Recorder();
        SharedIndexInformer<Pod> inf = informer(Clock.system());
        inf.addEventHandler(recorder);
        inf.start();
        inf.waitForSync(Duration.ofSeconds(10));
        await().until(() -> recorder.calls.size() == 3);
        recorder.calls.clear();

        source.pause();
        source.put("changed", Map.of("v", "2"));
        source.remove("deleted");
        source.put("created", Map.of());
        source.compact();
        source.breakWatches();

        await().until(() -> recorder.calls.size() == 3);
        assertThat(recorder.calls)
                .containsExactlyInAnyOrder("update changed 2->4", "delete deleted tombstone", "add created");
        assertThat(source.lists.get()).isEqualTo(2);
        assertThat(inf.indexer().list().stream().collect(Collectors.toMap(Pod::key, p -> p)))
                .isEqualTo(source.snapshot());
    }

    @Test
    void handlerAddedLaterGetsTheCacheReplayedAndResyncRedeliversOnTheClock() throws Exception {
        FakeClock clock = new FakeClock();
        source.put("a", Map.of());
        source.put("b", Map.of());
        SharedIndexInformer<Pod> inf = informer(clock);
        Recorder early = new Recorder();
        inf.addEventHandler(early);
        inf.start();
        inf.waitForSync(Duration.ofSeconds(10));
        Recorder late = new Recorder();
        Recorder resyncing = new Recorder();
        SharedInformer.HandlerRegistration lateRegistration = inf.addEventHandler(late);
        inf.addEventHandler(resyncing, Duration.ofSeconds(30));
        await().until(lateRegistration::hasSynced);
        assertThat(late.calls).containsExactlyInAnyOrder("add a initial", "add b initial");

        clock.advance(Duration.ofSeconds(30));
        await().until(() -> resyncing.calls.size() == 4);
        assertThat(resyncing.calls.subList(2, 4)).containsExactlyInAnyOrder("update a 1->1", "update b 2->2");
        assertThat(early.calls).as("handlers without resync see no resync").hasSize(2);
        assertThat(late.calls).hasSize(2);
    }
}
