package io.kplane.client.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Pod;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An informer keeps two threads of its own for its life, its reflector (reading the watch) and its
 * processor (popping the DeltaFIFO); its handlers' deliveries borrow the shared {@link HandlerThreads}
 * and keep no thread while they have nothing to deliver (a component with ~20 informers kept one
 * parked thread per handler before).
 */
class InformerThreadsTest {
    private final FakeListerWatcher source = new FakeListerWatcher();
    private SharedIndexInformer<Pod> informer;

    @AfterEach
    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    @Test
    void anIdleInformerKeepsItsReflectorAndProcessorThreadsOnly() throws Exception {
        for (int i = 0; i < 20; i++) {
            source.put("p" + i, Map.of());
        }
        informer = new SharedIndexInformer<>(
                "threadcount", source, Clock.system(), ReflectorOptions.DEFAULT, Indexers.standard());
        List<SharedIndexInformerTest.Recorder> recorders = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            SharedIndexInformerTest.Recorder recorder = new SharedIndexInformerTest.Recorder();
            recorders.add(recorder);
            informer.addEventHandler(recorder);
        }
        informer.start();
        assertThat(informer.waitForSync(Duration.ofSeconds(30))).isTrue();
        source.put("p20", Map.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> recorders.stream().allMatch(r -> r.calls.size() == 21));

        // once the deliveries are done no thread works for (or is named after) a handler
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(threadsNamed("threadcount"))
                .containsExactlyInAnyOrder("threadcount-reflector", "threadcount-informer"));
    }

    @Test
    void aSlowHandlerDelaysNeitherAnotherHandlerNorItsOwnOrder() throws Exception {
        source.put("a", Map.of());
        informer = new SharedIndexInformer<>(
                "slowhandler", source, Clock.system(), ReflectorOptions.DEFAULT, Indexers.standard());
        CountDownLatch release = new CountDownLatch(1);
        List<String> slowCalls = new java.util.concurrent.CopyOnWriteArrayList<>();
        informer.addEventHandler(new ResourceEventHandler<Pod>() {
            @Override
            public void onAdd(Pod obj, boolean initial) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                slowCalls.add(obj.name());
            }

            @Override
            public void onUpdate(Pod oldObj, Pod newObj) {}

            @Override
            public void onDelete(Pod obj, boolean finalStateUnknown) {}
        });
        SharedIndexInformerTest.Recorder fast = new SharedIndexInformerTest.Recorder();
        informer.addEventHandler(fast);
        informer.start();
        source.put("b", Map.of());
        source.put("c", Map.of());

        // the fast handler gets everything while the slow one is still blocked in its first call
        await().atMost(Duration.ofSeconds(30)).until(() -> fast.calls.size() == 3);
        assertThat(slowCalls).isEmpty();
        assertThat(threadsNamed("slowhandler")).contains("slowhandler-handler-0");
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> slowCalls.size() == 3);
        assertThat(slowCalls).containsExactly("a", "b", "c");
    }

    private static Set<String> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith(prefix + "-"))
                .collect(Collectors.toSet());
    }
}
