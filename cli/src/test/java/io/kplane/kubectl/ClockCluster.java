package io.kplane.kubectl;

import static org.awaitility.Awaitility.await;

import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.client.time.ClusterClockFollower;
import io.kplane.controllers.cronjob.CronJobControllerComponent;
import io.kplane.controllers.gc.GarbageCollectorComponent;
import io.kplane.controllers.job.JobControllerComponent;
import io.kplane.controllers.job.JobSyncConfig;
import io.kplane.controllers.nodelifecycle.NodeLifecycleComponent;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import io.kplane.controllers.scheduler.SchedulerComponent;
import io.kplane.controllers.ttl.TtlControllerComponent;
import io.kplane.kubelet.Kubelet;
import io.kplane.kubelet.KubeletConfig;
import io.kplane.kubelet.KubeletMain;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole stack with the upstream default timings, every part following the cluster Clock: an API
 * server on PostgreSQL; the Job, CronJob, TTL, garbage-collector, scheduler and node-lifecycle
 * controllers and kubelet-sims with the process runtime (real containers), all in this JVM but
 * talking to the server over HTTP only, following one {@link ClusterClockFollower} as one process
 * would (one process keeps the machine's two cores free for the containers). A test that needs a real
 * crash starts a kubelet in its own JVM ({@link #startKubeletProcess}) and kills it with SIGKILL.
 * Nothing is shortened: time is moved with the clock instead.
 */
final class ClockCluster implements AutoCloseable {
    final TestApiServer api;
    final KubeClient client;
    final Path dir;
    private final ClusterClockFollower follower;
    private final SharedInformerFactory informers;
    private final List<ControllerComponent.Running> controllers = new ArrayList<>();
    final Map<String, Kubelet> kubelets = new LinkedHashMap<>();
    private final List<Process> processKubelets = new ArrayList<>();

    ClockCluster(String... nodes) throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        dir = Files.createTempDirectory("kplane-clock");
        follower = ClusterClockFollower.start(client, "controllers", Duration.ofSeconds(30));
        Clock clock = follower.clock();
        informers = new SharedInformerFactory(client, Clock.system());
        ApiEventRecorder events = new ApiEventRecorder(client, "controllers", "test", clock);
        ControllerContext ctx =
                new ControllerContext(client, informers, clock, events, new SimpleMeterRegistry(), 2, "test");
        for (ControllerComponent c : List.of(
                new JobControllerComponent(JobSyncConfig.defaults()),
                new CronJobControllerComponent(),
                new TtlControllerComponent(),
                new GarbageCollectorComponent(),
                new SchedulerComponent(Duration.ofSeconds(60)),
                new NodeLifecycleComponent(Duration.ofSeconds(40), Duration.ofSeconds(5), Duration.ZERO))) {
            controllers.add(c.register(ctx));
        }
        informers.start();
        if (!informers.waitForCacheSync(Duration.ofSeconds(30))) {
            throw new IllegalStateException("informer caches did not sync");
        }
        controllers.forEach(ControllerComponent.Running::startWorkers);
        for (String node : nodes) {
            kubelets.put(node, startKubelet(node));
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        client.nodes().list().stream().filter(n -> n.isReady()).count() == nodes.length);
    }

    private Kubelet startKubelet(String node) throws Exception {
        Path root = Files.createDirectories(dir.resolve(node));
        return new Kubelet(KubeletConfig.defaults(ClientConfig.forServer(api.url()), node, root), follower.clock())
                .start();
    }

    /**
     * A kubelet-sim in its own JVM ({@code KubeletMain}, process runtime, following the cluster Clock
     * itself), for tests that kill a real process; returns once its Node is Ready. Its output goes to
     * {@code <dir>/<node>.log}.
     */
    Process startKubeletProcess(String node) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path root = Files.createDirectories(dir.resolve(node));
        Process process = new ProcessBuilder(
                        java,
                        "-Xmx192m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        classpath,
                        KubeletMain.class.getName(),
                        "--server",
                        api.url(),
                        "--node-name",
                        node,
                        "--port",
                        "0",
                        "--root-dir",
                        root.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(node + ".log").toFile())
                .start();
        processKubelets.add(process);
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "kubelet " + node + " exited: " + Files.readString(dir.resolve(node + ".log")));
            }
            return client.nodes().find(node).map(n -> n.isReady()).orElse(false);
        });
        return process;
    }

    @Override
    public void close() throws Exception {
        for (Process p : processKubelets) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        kubelets.values().forEach(Kubelet::close);
        controllers.forEach(ControllerComponent.Running::close);
        informers.shutdown();
        follower.close();
        api.close();
    }
}
