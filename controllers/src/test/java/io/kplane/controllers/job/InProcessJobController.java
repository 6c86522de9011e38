package io.kplane.controllers.job;

import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import io.kplane.controllers.testing.RecordingEvents;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;

/**
 * The Job controller component run in the test JVM the way {@code ControllerProcess} runs it
 * (fresh informer factory, caches synced before workers start), against a real API server, with the
 * events it records kept for assertions.
 */
final class InProcessJobController implements AutoCloseable {
    private final SharedInformerFactory informers;
    private final ControllerComponent.Running running;
    private final RecordingEvents events = new RecordingEvents();

    private InProcessJobController(KubeClient client, JobSyncConfig config, int workers) throws Exception {
        this(client, config, workers, io.kplane.client.lens.Lens.NOOP);
    }

    private InProcessJobController(
            KubeClient client, JobSyncConfig config, int workers, io.kplane.client.lens.Lens lens) throws Exception {
        this(client, config, workers, lens, new SimpleMeterRegistry());
    }

    private InProcessJobController(
            KubeClient client,
            JobSyncConfig config,
            int workers,
            io.kplane.client.lens.Lens lens,
            io.micrometer.core.instrument.MeterRegistry metrics)
            throws Exception {
        Clock clock = Clock.system();
        informers = new SharedInformerFactory(client, clock).withLens(lens);
        ControllerContext ctx = new ControllerContext(client, informers, clock, events, metrics, workers, "test", lens);
        running = new JobControllerComponent(config).register(ctx);
        informers.start();
        if (!informers.waitForCacheSync(Duration.ofSeconds(30))) {
            throw new IllegalStateException("informer caches did not sync");
        }
        running.startWorkers();
    }

    static InProcessJobController start(KubeClient client, JobSyncConfig config) throws Exception {
        return new InProcessJobController(client, config, 5);
    }

    /** With the lens on, recording into {@code lens}. */
    static InProcessJobController start(KubeClient client, JobSyncConfig config, io.kplane.client.lens.Lens lens)
            throws Exception {
        return new InProcessJobController(client, config, 5, lens);
    }

    /** With the lens on and metrics in {@code metrics}. */
    static InProcessJobController start(
            KubeClient client,
            JobSyncConfig config,
            io.kplane.client.lens.Lens lens,
            io.micrometer.core.instrument.MeterRegistry metrics)
            throws Exception {
        return new InProcessJobController(client, config, 5, lens, metrics);
    }

    static InProcessJobController start(KubeClient client, JobSyncConfig config, int workers) throws Exception {
        return new InProcessJobController(client, config, workers);
    }

    List<RecordingEvents.Recorded> events(String objectKey, String reason) {
        return events.about(objectKey, reason);
    }

    @Override
    public void close() {
        running.close();
        informers.shutdown();
    }
}
