package io.kplane.client.lens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Result;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LensRecorderTest {

    @Test
    void ringBufferAndPerObjectHistoryAreBounded() {
        LensRecorder lens = new LensRecorder("test", "me", Clock.system(), 16, 1_000_000);
        for (int i = 0; i < 100; i++) {
            lens.record(LensRecord.of("c", "queue", "add", null, "ns/k" + i, null, null));
        }
        List<LensRecord> kept = lens.since(0, 1000);
        assertThat(kept).hasSize(16);
        assertThat(kept.get(0).seq()).isEqualTo(85);
        assertThat(kept.get(15).seq()).isEqualTo(100);
        assertThat(lens.since(95, 1000)).extracting(LensRecord::seq).containsExactly(96L, 97L, 98L, 99L, 100L);

        ControllerLens controller = lens.controller("c", "c");
        for (int i = 0; i < 15; i++) {
            controller.beginSync("ns/one").decided("d" + i, null).finish(null, null);
        }
        assertThat(lens.syncsOf("ns/one"))
                .hasSize(LensRecorder.SYNCS_PER_OBJECT)
                .last()
                .satisfies(r -> assertThat(r.sync().decision()).isEqualTo("d14"));
        for (int i = 0; i < LensRecorder.MAX_OBJECTS + 50; i++) {
            controller.beginSync("ns/many-" + i).finish(null, null);
        }
        assertThat(lens.syncsOf("ns/one")).isEmpty(); // the least recently synced object went first
        assertThat(lens.syncsOf("ns/many-" + (LensRecorder.MAX_OBJECTS + 49))).hasSize(1);
    }

    @Test
    void samplingDropsMachineryRecordsButNeverSyncs() {
        LensRecorder lens = new LensRecorder("test", "me", Clock.system(), 4096, 10);
        for (int i = 0; i < 50; i++) {
            lens.record(LensRecord.of("c", "queue", "add", null, "ns/k", null, null));
        }
        lens.controller("c", "c").beginSync("ns/k").finish(null, null);
        assertThat(lens.droppedTotal()).isGreaterThanOrEqualTo(30);
        assertThat(lens.sampling()).isTrue();
        assertThat(lens.since(0, 4096)).anyMatch(r -> r.sync() != null);
    }

    @Test
    void aSyncRecordCarriesEveryTriggerCoalescedIntoItsKeyAndItsRequeue() throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
        LensRecorder lens = new LensRecorder("test", "me", clock);
        RateLimitingQueue<String> queue = RateLimitingQueue.create(clock, lens, "job");
        List<LensRecord> syncs = new CopyOnWriteArrayList<>();
        lens.addListener(new LensListener() {
            @Override
            public void recorded(LensRecord record) {
                if (record.sync() != null) {
                    syncs.add(record);
                }
            }
        });
        AtomicInteger calls = new AtomicInteger();
        Controller controller = Controller.builder()
                .name("job-controller")
                .workers(2)
                .queue(queue)
                .lens(lens, "job", "job")
                .reconciler(key -> {
                    SyncScope.current()
                            .saw("active", 1)
                            .decided("pods_created", "1 pod missing")
                            .wrote("create", "pods", "default/pi-x", "7", null)
                            .event("Normal", "SuccessfulCreate", "Created pod: pi-x");
                    return calls.incrementAndGet() == 1 ? Result.requeueAfter(Duration.ofSeconds(10)) : Result.done();
                })
                .build();
        // two informer events for the same key before any worker runs: the queue holds the key once
        LensRecorder.handlingEvent(new SyncSummary.Trigger("ADDED", "jobs", "default/pi", "5", null));
        queue.add("default/pi");
        LensRecorder.handlingEvent(new SyncSummary.Trigger("MODIFIED", "pods", "default/pi-abc", "6", null));
        queue.add("default/pi");
        LensRecorder.handlingEvent(null);
        assertThat(queue.len()).isEqualTo(1);
        controller.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> syncs.size() == 1);
            SyncSummary first = syncs.get(0).sync();
            assertThat(first.triggers())
                    .extracting(SyncSummary.Trigger::type, SyncSummary.Trigger::key)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("ADDED", "default/pi"),
                            org.assertj.core.groups.Tuple.tuple("MODIFIED", "default/pi-abc"));
            assertThat(first.decision()).isEqualTo("pods_created");
            assertThat(first.saw()).containsEntry("active", 1);
            assertThat(first.writes()).singleElement().satisfies(w -> assertThat(w.rv())
                    .isEqualTo("7"));
            assertThat(first.events()).singleElement().satisfies(e -> assertThat(e.reason())
                    .isEqualTo("SuccessfulCreate"));
            assertThat(first.requeueAfterMs()).isEqualTo(10_000L);
            // the requeue waits, delayed, with its due time
            QueueState state = (QueueState) lens.queue("job");
            await().atMost(Duration.ofSeconds(30)).until(() -> state.delayed() == 1);
            assertThat(state.items(10)).singleElement().satisfies(item -> {
                assertThat(item).containsEntry("state", "delayed").containsEntry("dueAt", "2026-01-01T00:00:10Z");
            });
            clock.advance(Duration.ofSeconds(10));
            await().atMost(Duration.ofSeconds(10)).until(() -> syncs.size() == 2);
            assertThat(syncs.get(1).sync().triggers())
                    .extracting(SyncSummary.Trigger::type)
                    .containsExactly("REQUEUE");
            assertThat(lens.since(0, 4096))
                    .extracting(LensRecord::type)
                    .contains("add", "coalesce", "get", "add-after", "forget", "due", "done", "sync");
        } finally {
            controller.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void pausedWorkersTakeNothingAndEachStepReleasesExactlyOneItem() throws Exception {
        LensRecorder lens = new LensRecorder("test", "me", Clock.system());
        RateLimitingQueue<String> queue = RateLimitingQueue.create(Clock.system(), lens, "job");
        AtomicInteger synced = new AtomicInteger();
        Controller controller = Controller.builder()
                .name("job-controller")
                .workers(3)
                .queue(queue)
                .lens(lens, "job", "job")
                .reconciler(key -> {
                    synced.incrementAndGet();
                    return Result.done();
                })
                .build();
        ControllerState state = lens.controllerState("job");
        assertThat(state.pause()).containsEntry("paused", true);
        controller.start();
        try {
            queue.add("default/a");
            queue.add("default/b");
            queue.add("default/c");
            // one worker takes the head and holds it; the others wait for their turn
            await().atMost(Duration.ofSeconds(30)).until(() -> heldKeys(state).equals(List.of("default/a")));
            assertThat(synced).hasValue(0);
            assertThat(queue.len()).isEqualTo(2);

            state.step();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> synced.get() == 1 && heldKeys(state).equals(List.of("default/b")));
            assertThat(queue.len()).isEqualTo(1);
            assertThat(state.state()).containsEntry("stepsPending", 0);

            state.resume();
            await().atMost(Duration.ofSeconds(30)).until(() -> synced.get() == 3);
        } finally {
            controller.stop(Duration.ofSeconds(5));
        }
    }

    private static List<String> heldKeys(ControllerState state) {
        return state.queue().items(10).stream()
                .filter(m -> Boolean.TRUE.equals(m.get("held")))
                .map(m -> (String) m.get("key"))
                .toList();
    }

    @Test
    void theDefaultLensRecordsNothing() {
        assertThat(Lens.NOOP.enabled()).isFalse();
        assertThat(Lens.NOOP.queue("job").enabled()).isFalse();
        assertThat(SyncScope.current()).isSameAs(SyncScope.NOOP);
        assertThat(Lens.NOOP.controller("job", "job").beginSync("k")).isSameAs(SyncScope.NOOP);
        assertThat(Map.of()).isEmpty();
    }
}
