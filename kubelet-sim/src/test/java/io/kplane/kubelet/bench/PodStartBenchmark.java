package io.kplane.kubelet.bench;

import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.json.Json;
import io.kplane.api.meta.WatchEvent;
import io.kplane.api.util.DaemonThreads;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.scheduler.Scheduler;
import io.kplane.kubelet.Kubelet;
import io.kplane.kubelet.KubeletConfig;
import io.kplane.kubelet.runtime.DockerRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Pod start latency (bound → Running, as seen by a watch) and throughput of one kubelet-sim running N
 * short pods, with the process and docker runtimes, through the real API server, PostgreSQL and
 * scheduler. Next to it, the physical floor measured in the same run: starting the same command
 * directly (a host process; a container through the engine API), so the overhead is a ratio.
 *
 * <pre>mvn -q -f kubelet-sim/pom.xml test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.kplane.kubelet.bench.PodStartBenchmark -Dexec.args="500 process docker"</pre>
 */
public final class PodStartBenchmark {
    private static final String SCRIPT = "echo hello";

    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        List<String> runtimes = args.length > 1 ? List.of(args).subList(1, args.length) : List.of("process", "docker");
        try (TestApiServer api = TestApiServer.start()) {
            for (String runtime : runtimes) {
                if ("docker".equals(runtime) && (System.getenv("DOCKER_HOST") == null)) {
                    System.out.println("docker: skipped (DOCKER_HOST is not set)");
                    continue;
                }
                run(api, runtime, pods);
            }
        }
        System.exit(0);
    }

    private static void run(TestApiServer api, String runtime, int pods) throws Exception {
        String image = "busybox";
        if ("docker".equals(runtime)) {
            try (DockerRuntime docker = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system())) {
                image = io.kplane.kubelet.TestImages.workingBusybox(docker.client());
            }
        }
        double floorMs = "docker".equals(runtime) ? dockerFloorMs(image) : processFloorMs();
        KubeClient client = KubeClient.create(ClientConfig.forServer(api.url()));
        String node = "bench-" + runtime;
        Path root = Files.createTempDirectory("kubelet-bench");
        KubeletConfig config = KubeletConfig.defaults(ClientConfig.forServer(api.url()), node, root)
                .withRuntime(runtime, System.getenv("DOCKER_HOST"));
        SharedInformerFactory informers = new SharedInformerFactory(client, Clock.system());
        Scheduler scheduler = new Scheduler(
                informers.informerFor(Pod.class),
                informers.informerFor(Node.class),
                client,
                new ApiEventRecorder(client, "bench", "bench", Clock.system()),
                Clock.system(),
                Duration.ofSeconds(30));
        informers.start();
        informers.waitForCacheSync(Duration.ofSeconds(30));
        scheduler.startWorkers();
        String ns = "default";
        try (Kubelet kubelet = new Kubelet(config, Clock.system()).start()) {
            Map<String, Long> boundAt = new ConcurrentHashMap<>();
            Map<String, Long> runningAt = new ConcurrentHashMap<>();
            CountDownLatch finished = new CountDownLatch(pods);
            String label = "bench=" + runtime;
            Thread watcher = watch(client, ns, label, boundAt, runningAt, finished);
            long start = System.nanoTime();
            // 8 concurrent creators, so the API's create latency does not pace the kubelet
            var creators = java.util.concurrent.Executors.newFixedThreadPool(8);
            for (int i = 0; i < pods; i++) {
                Pod p = pod(runtime + "-" + i, runtime, image, node);
                creators.execute(() -> client.pods().inNamespace(ns).create(p));
            }
            creators.shutdown();
            creators.awaitTermination(10, TimeUnit.MINUTES);
            long created = System.nanoTime();
            boolean done = finished.await(30, TimeUnit.MINUTES);
            long end = System.nanoTime();
            watcher.interrupt();
            List<Double> latencies = new ArrayList<>();
            boundAt.forEach((name, bound) -> {
                Long running = runningAt.get(name);
                if (running != null) {
                    latencies.add((running - bound) / 1e6);
                }
            });
            Collections.sort(latencies);
            double seconds = (end - start) / 1e9;
            System.out.printf(
                    "%s runtime: %d pods %s in %.1f s (creates took %.1f s) -> %.1f pods/s%n",
                    runtime,
                    pods,
                    done ? "finished" : "NOT all finished",
                    seconds,
                    (created - start) / 1e9,
                    pods / seconds);
            System.out.printf(
                    "  pod start latency bound -> Running: p50 %.0f ms, p99 %.0f ms (n=%d)%n",
                    pct(latencies, 50), pct(latencies, 99), latencies.size());
            System.out.printf(
                    "  floor: starting the same command directly takes %.1f ms (p50); "
                            + "pod start p50 / floor = %.1fx%n",
                    floorMs, pct(latencies, 50) / floorMs);
            System.out.printf(
                    "  throughput / one-at-a-time floor (%.1f starts/s) = %.2f%n",
                    1000 / floorMs, (pods / seconds) / (1000 / floorMs));
        } finally {
            scheduler.stop(Duration.ofSeconds(5));
            informers.shutdown();
            client.pods()
                    .inNamespace(ns)
                    .deleteCollection(
                            ListOptions.labelSelector("bench=" + runtime),
                            io.kplane.api.meta.DeleteOptions.gracePeriod(0));
            // its kubelet is gone: the next run's pods must not be placed on it
            client.nodes().delete(node);
        }
    }

    private static Thread watch(
            KubeClient client,
            String ns,
            String label,
            Map<String, Long> boundAt,
            Map<String, Long> runningAt,
            CountDownLatch finished) {
        Map<String, Boolean> counted = new ConcurrentHashMap<>();
        Thread t = DaemonThreads.newThread("bench-watch", () -> {
            try (WatchStream<Pod> stream = client.pods().inNamespace(ns).watch(ListOptions.labelSelector(label))) {
                WatchEvent<Pod> e;
                while (!Thread.currentThread().isInterrupted() && (e = stream.next()) != null) {
                    Pod p = e.object();
                    if (p == null || p.metadata() == null) {
                        continue;
                    }
                    long now = System.nanoTime();
                    String name = p.metadata().name();
                    if (p.nodeName() != null) {
                        boundAt.putIfAbsent(name, now);
                    }
                    String phase = p.phase();
                    if ("Running".equals(phase) || p.isTerminal()) {
                        runningAt.putIfAbsent(name, now);
                    }
                    if (p.isTerminal() && counted.putIfAbsent(name, true) == null) {
                        finished.countDown();
                    }
                }
            } catch (RuntimeException e) {
                if (!Thread.currentThread().isInterrupted()) {
                    System.err.println("watch ended: " + e);
                }
            }
        });
        t.start();
        return t;
    }

    private static Pod pod(String name, String runtime, String image, String node) {
        try {
            return Json.yamlMapper()
                    .readValue(
                            """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: %s, namespace: default, labels: {bench: %s}}
                    spec:
                      restartPolicy: Never
                      nodeSelector: {kubernetes.io/hostname: %s}
                      containers:
                      - {name: main, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                    """
                                    .formatted(name, runtime, node, image, SCRIPT),
                            Pod.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** p50 of spawning {@code sh -c 'echo hello'} directly and waiting for it. */
    private static double processFloorMs() throws Exception {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder("setsid", "sh", "-c", SCRIPT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.waitFor();
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        Collections.sort(ms);
        return pct(ms, 50);
    }

    /** p50 of create + start of the same container through the engine API (until it runs). */
    private static double dockerFloorMs(String image) {
        List<Double> ms = new ArrayList<>();
        try (DockerRuntime docker = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system())) {
            var c = docker.client();
            for (int i = 0; i < 20; i++) {
                long t0 = System.nanoTime();
                String id = c.createContainerCmd(image)
                        .withEntrypoint("sh", "-c", SCRIPT)
                        .withEnv("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
                        .exec()
                        .getId();
                c.startContainerCmd(id).exec();
                ms.add((System.nanoTime() - t0) / 1e6);
                c.waitContainerCmd(id)
                        .exec(new com.github.dockerjava.core.command.WaitContainerResultCallback())
                        .awaitStatusCode();
                c.removeContainerCmd(id).exec();
            }
        }
        Collections.sort(ms);
        return pct(ms, 50);
    }

    private static double pct(List<Double> sorted, int p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
