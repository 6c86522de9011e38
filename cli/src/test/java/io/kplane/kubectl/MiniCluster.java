package io.kplane.kubectl;

import static org.awaitility.Awaitility.await;

import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.job.JobControllerComponent;
import io.kplane.controllers.job.JobSyncConfig;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import io.kplane.controllers.scheduler.Scheduler;
import io.kplane.kubelet.Kubelet;
import io.kplane.kubelet.KubeletConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Enough of the real stack for commands that need running containers: an API server on PostgreSQL,
 * the scheduler, the Job controller and one kubelet-sim with the process runtime (containers are host
 * processes), all in this JVM but talking only over HTTP, as the separate processes do.
 */
final class MiniCluster implements AutoCloseable {
    static final String NODE = "node-1";

    final TestApiServer api;
    final KubeClient client;
    private final SharedInformerFactory informers;
    private final Scheduler scheduler;
    private final ControllerComponent.Running jobController;
    private final Kubelet kubelet;

    /** Lens on the Job controller (persisted as SyncRecords) when built by {@link #withLens()}; null otherwise. */
    private final io.kplane.client.lens.SyncRecordPersister persister;

    MiniCluster() throws Exception {
        this(false, null);
    }

    /** The same with the Job controller's lens on, its sync records persisted (what a controller process does). */
    static MiniCluster withLens() throws Exception {
        return new MiniCluster(true, null);
    }

    /** The same with the kubelet's docker runtime on the Docker Engine API at {@code dockerHost}. */
    static MiniCluster withDockerRuntime(String dockerHost) throws Exception {
        return new MiniCluster(false, dockerHost);
    }

    private MiniCluster(boolean lensOn, String dockerHost) throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        Clock clock = Clock.system();
        io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
        if (lensOn) {
            io.kplane.client.lens.LensRecorder recorder =
                    new io.kplane.client.lens.LensRecorder(JobControllerComponent.NAME, "test", clock);
            persister = io.kplane.client.lens.SyncRecordPersister.start(client, recorder);
            lens = recorder;
        } else {
            persister = null;
        }
        informers = new SharedInformerFactory(client, clock).withLens(lens);
        ApiEventRecorder events = new ApiEventRecorder(client, "test", "test", clock);
        scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                events,
                clock,
                Duration.ofSeconds(1));
        jobController = new JobControllerComponent(JobSyncConfig.defaults())
                .register(new ControllerContext(
                        client, informers, clock, events, new SimpleMeterRegistry(), 2, "test", lens));
        informers.start();
        if (!informers.waitForCacheSync(Duration.ofSeconds(30))) {
            throw new IllegalStateException("informer caches did not sync");
        }
        scheduler.startWorkers();
        jobController.startWorkers();
        Path root = Files.createTempDirectory("kubectl-lite-kubelet");
        KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), NODE, root)
                .withCrashLoop(Duration.ofMillis(200), Duration.ofSeconds(1))
                .withLeaseInterval(Duration.ofSeconds(1));
        if (dockerHost != null) {
            config = config.withRuntime("docker", dockerHost);
        }
        kubelet = new Kubelet(config, clock).start();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.nodes().find(NODE).isPresent());
    }

    Pod pod(String name) {
        return client.pods().inNamespace("default").get(name);
    }

    /** Waits until the pod has reached {@code phase}. */
    Pod awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> client.pods()
                        .inNamespace("default")
                        .find(name)
                        .map(p -> phase.equals(p.phase()))
                        .orElse(false));
        return pod(name);
    }

    @Override
    public void close() throws Exception {
        kubelet.shutdownNode(Duration.ZERO); // docker runtime: removes the node's containers from the engine
        jobController.close();
        if (persister != null) {
            persister.close();
        }
        scheduler.stop(Duration.ofSeconds(5));
        informers.shutdown();
        api.close();
    }
}
