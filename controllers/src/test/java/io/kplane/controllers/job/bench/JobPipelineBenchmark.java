package io.kplane.controllers.job.bench;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.WatchEvent;
import io.kplane.api.patch.PatchType;
import io.kplane.api.util.DaemonThreads;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.job.JobControllerComponent;
import io.kplane.controllers.job.JobSyncConfig;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import io.kplane.store.bench.RawInsertBenchmark;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pods per second through the whole Job pipeline: API server on PostgreSQL, the Job controller
 * (in this JVM, real client and informers), and a fast fake kubelet that marks every new pod
 * Succeeded at once. Each pod costs at least three writes (create, status, finalizer removal) plus
 * its share of Job status writes; the raw single-row INSERT rate measured on the same PostgreSQL
 * in the same run is printed next to it as the physical limit.
 *
 * <p>Run: {@code mvn -q -B -pl controllers test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.kplane.controllers.job.bench.JobPipelineBenchmark
 * [-Dexec.args="--completions 2000 --parallelism 200 --batch-periods 1s,100ms --raw-seconds 5"]}
 */
public final class JobPipelineBenchmark {
    private static final String NS = "default";

    private JobPipelineBenchmark() {}

    record Run(
            Duration batchPeriod,
            int completions,
            double createdPerSecond,
            double completedPerSecond,
            long writes,
            Duration elapsed) {}

    public static void main(String[] args) throws Exception {
        int completions = 2000;
        int parallelism = 200;
        List<Duration> batchPeriods = List.of(Duration.ofSeconds(1), Duration.ofMillis(100));
        int rawSeconds = 5;
        int workers = 5;
        int warmups = 3;
        boolean verbose = false;
        int lensPairs = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--completions" -> completions = Integer.parseInt(args[++i]);
                case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--warmups" -> warmups = Integer.parseInt(args[++i]);
                case "--raw-seconds" -> rawSeconds = Integer.parseInt(args[++i]);
                case "--verbose" -> verbose = true;
                case "--lens-pairs" -> lensPairs = Integer.parseInt(args[++i]);
                case "--batch-periods" -> batchPeriods = java.util.Arrays.stream(args[++i].split(","))
                        .map(io.kplane.controllers.runtime.DurationConverter::parse)
                        .toList();
                default -> throw new IllegalArgumentException(
                        "usage: [--completions N] [--parallelism N] [--workers N] [--warmups N] [--batch-periods 1s,100ms] [--raw-seconds N] [--lens-pairs N] [--verbose]");
            }
        }
        if (!verbose) {
            // One access-log line per request would bill stdout to the pipeline: keep warnings only.
            ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                    .setLevel(ch.qos.logback.classic.Level.WARN);
        }
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.forServer(api.url());
            List<Run> runs = new java.util.ArrayList<>();
            // Full-size warm-up Jobs, unmeasured, so JIT compilation (which takes a good part of the two
            // cores for the first runs) and connection set-up are not billed to the measured runs.
            for (int w = 0; w < warmups; w++) {
                Run warm = runJob(client, Duration.ofMillis(100), completions, parallelism, workers, "warmup");
                System.out.printf("warm-up %d: %.0f pods/s end to end%n", w + 1, warm.completedPerSecond());
            }
            if (lensPairs > 0) {
                compareLens(client, lensPairs, batchPeriods.get(0), completions, parallelism, workers);
                System.exit(0);
            }
            for (Duration period : batchPeriods) {
                ApiRequestCounts before = ApiRequestCounts.scrape(api.url());
                runs.add(runJob(client, period, completions, parallelism, workers, "bench"));
                System.out.printf(
                        "batch period %-6s: %s%n",
                        period.toMillis() + "ms",
                        ApiRequestCounts.scrape(api.url()).writesPerPodSince(before, completions));
            }
            double apiCreates = apiCreateRate(client, 2000, 16);
            Vertx vertx = Vertx.vertx();
            RawInsertBenchmark.Result raw1;
            RawInsertBenchmark.Result raw8;
            try {
                String payload = "x".repeat(1500); // about the size of one stored pod
                raw1 = RawInsertBenchmark.measure(vertx, api.database(), 1, Duration.ofSeconds(rawSeconds), payload);
                raw8 = RawInsertBenchmark.measure(vertx, api.database(), 8, Duration.ofSeconds(rawSeconds), payload);
            } finally {
                vertx.close().await(30, TimeUnit.SECONDS);
            }
            System.out.printf(
                    "%nJob pipeline: completions %d, parallelism %d, %d controller workers, %d cores%n",
                    completions, parallelism, workers, Runtime.getRuntime().availableProcessors());
            System.out.printf(
                    "raw PostgreSQL single-row INSERT (autocommit): %.0f/s at concurrency 1, %.0f/s at concurrency 8%n",
                    raw1.perSecond(), raw8.perSecond());
            System.out.printf(
                    "API server pod creates, 16 concurrent clients, no controller: %.0f/s (%.2f x raw)%n",
                    apiCreates, apiCreates / raw8.perSecond());
            for (Run r : runs) {
                double writesPerSecond = r.writes() / (r.elapsed().toNanos() / 1e9);
                System.out.printf(
                        "batch period %-6s: created %.0f pods/s, completed end to end %.0f pods/s (%.1f s), "
                                + "%.0f API writes/s = %.2f x API creates/s, %.3f x raw INSERT; pods/s = %.3f x raw%n",
                        r.batchPeriod().toMillis() + "ms",
                        r.createdPerSecond(),
                        r.completedPerSecond(),
                        r.elapsed().toMillis() / 1000.0,
                        writesPerSecond,
                        writesPerSecond / apiCreates,
                        writesPerSecond / raw8.perSecond(),
                        r.completedPerSecond() / raw8.perSecond());
            }
        }
        System.exit(0);
    }

    /**
     * The lens's cost: {@code pairs} runs with the lens off and on, interleaved (off, on, off, on...) so
     * that load from other processes on the machine falls on both alike; prints each run and the ratio
     * of the means of end-to-end pods/s (on / off). "On" is the lens as a controller process builds it
     * (recorder, informer/queue/sync hooks, lens metrics, SyncRecord persister) with no UI reading it.
     */
    private static void compareLens(
            KubeClient client, int pairs, Duration batchPeriod, int completions, int parallelism, int workers)
            throws Exception {
        List<Double> off = new java.util.ArrayList<>();
        List<Double> on = new java.util.ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            for (boolean lens : i % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                Run r = runJob(
                        client, batchPeriod, completions, parallelism, workers, lens ? "lens-on" : "lens-off", lens);
                (lens ? on : off).add(r.completedPerSecond());
                System.out.printf(
                        "pair %d lens %-3s: created %.0f pods/s, completed end to end %.0f pods/s%n",
                        i + 1, lens ? "on" : "off", r.createdPerSecond(), r.completedPerSecond());
            }
        }
        double meanOff = off.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double meanOn = on.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        System.out.printf(
                "%nlens off: mean %.0f pods/s %s%nlens on : mean %.0f pods/s %s%nratio on/off: %.3f%n",
                meanOff, off, meanOn, on, meanOn / meanOff);
    }

    private static Run runJob(
            KubeClient client, Duration batchPeriod, int completions, int parallelism, int workers, String prefix)
            throws Exception {
        return runJob(client, batchPeriod, completions, parallelism, workers, prefix, false);
    }

    private static Run runJob(
            KubeClient client,
            Duration batchPeriod,
            int completions,
            int parallelism,
            int workers,
            String prefix,
            boolean lensOn)
            throws Exception {
        String name = prefix + "-" + batchPeriod.toMillis() + "ms-" + System.nanoTime() % 100000;
        io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
        io.kplane.client.lens.SyncRecordPersister persister = null;
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        if (lensOn) {
            io.kplane.client.lens.LensRecorder recorder =
                    new io.kplane.client.lens.LensRecorder(JobControllerComponent.NAME, "bench", Clock.system());
            io.kplane.controllers.runtime.LensMetrics.bind(recorder, registry);
            // as ComponentLens: the sync records are persisted as SyncRecords through the API too
            persister = io.kplane.client.lens.SyncRecordPersister.start(client, recorder);
            lens = recorder;
        }
        SharedInformerFactory informers = new SharedInformerFactory(client, Clock.system()).withLens(lens);
        ControllerContext ctx = new ControllerContext(
                client, informers, Clock.system(), EventRecorder.NONE, registry, workers, "bench", lens);
        JobSyncConfig config = JobSyncConfig.defaults().withPodEventBatchPeriod(batchPeriod);
        ControllerComponent.Running controller = new JobControllerComponent(config).register(ctx);
        informers.start();
        informers.waitForCacheSync(Duration.ofSeconds(60));
        controller.startWorkers();

        FastKubelet kubelet = new FastKubelet(client, name, completions);
        try {
            Instant start = Instant.now();
            client.jobs().inNamespace(NS).create(job(name, completions, parallelism));
            kubelet.allCreated.await(10, TimeUnit.MINUTES);
            Duration created = Duration.between(start, kubelet.lastCreated);
            waitComplete(client, name);
            Duration elapsed = Duration.between(start, Instant.now());
            long writes =
                    kubelet.statusWrites.get() * 3L; // pod create + status + finalizer removal, Job status excluded
            if (!prefix.equals("warmup")) {
                System.out.printf(
                        "%s: %d pods created in %.2f s, Job Complete after %.2f s%n",
                        name, completions, created.toMillis() / 1000.0, elapsed.toMillis() / 1000.0);
            }
            return new Run(
                    batchPeriod,
                    completions,
                    completions / (created.toNanos() / 1e9),
                    completions / (elapsed.toNanos() / 1e9),
                    writes,
                    elapsed);
        } finally {
            kubelet.close();
            controller.close();
            informers.shutdown();
            if (persister != null) {
                System.out.printf(
                        "%s: %d sync records persisted, %d dropped%n",
                        name, persister.persistedTotal(), persister.droppedTotal());
                persister.close();
            }
        }
    }

    /** The API server's own write ceiling in this run: bare pod creates from {@code threads} clients. */
    private static double apiCreateRate(KubeClient client, int pods, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Container container = ContainerBuilder.builder()
                .name("main")
                .image("busybox")
                .command(List.of("true"))
                .build();
        Pod template = new Pod(
                null,
                null,
                ObjectMetaBuilder.builder()
                        .namespace(NS)
                        .generateName("api-rate-")
                        .labels(java.util.Map.of("bench", "api-rate"))
                        .build(),
                PodSpecBuilder.builder()
                        .containers(List.of(container))
                        .restartPolicy("Never")
                        .build(),
                null);
        long start = System.nanoTime();
        List<java.util.concurrent.Future<?>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < pods; i++) {
            calls.add(pool.submit(() -> client.pods().inNamespace(NS).create(template)));
        }
        for (var c : calls) {
            c.get();
        }
        double rate = pods / ((System.nanoTime() - start) / 1e9);
        pool.shutdown();
        return rate;
    }

    private static void waitComplete(KubeClient client, String name) {
        try (WatchStream<Job> w = client.jobs()
                .inNamespace(NS)
                .watch(ListOptions.fieldSelector("metadata.name=" + name).withResourceVersion("0"))) {
            WatchEvent<Job> e;
            while ((e = w.next()) != null) {
                JobStatus s = e.object().status();
                if (s != null
                        && (s.hasTrueCondition(JobCondition.COMPLETE) || s.hasTrueCondition(JobCondition.FAILED))) {
                    return;
                }
            }
        }
        throw new IllegalStateException("watch on " + name + " ended before the Job finished");
    }

    private static Job job(String name, int completions, int parallelism) {
        Container container = ContainerBuilder.builder()
                .name("main")
                .image("busybox")
                .command(List.of("true"))
                .build();
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(container))
                        .restartPolicy("Never")
                        .build());
        return new Job(
                null,
                null,
                ObjectMeta.named(NS, name),
                JobSpecBuilder.builder()
                        .completions(completions)
                        .parallelism(parallelism)
                        .template(template)
                        .build(),
                null);
    }

    /** Watches the Job's pods and marks each new one Succeeded right away, from a pool of writers. */
    private static final class FastKubelet implements AutoCloseable {
        private static final String SUCCEEDED =
                "{\"status\":{\"phase\":\"Succeeded\",\"containerStatuses\":[{\"name\":\"main\","
                        + "\"ready\":false,\"restartCount\":0,\"image\":\"busybox\",\"state\":{\"terminated\":{\"exitCode\":0,"
                        + "\"reason\":\"Completed\",\"finishedAt\":\"%s\"}}}]}}";
        final CountDownLatch allCreated = new CountDownLatch(1);
        final AtomicLong statusWrites = new AtomicLong();
        volatile Instant lastCreated;
        private final Set<String> seen = ConcurrentHashMap.newKeySet();
        private final ExecutorService writers = Executors.newFixedThreadPool(16);
        private final WatchStream<Pod> watch;
        private final Thread reader;

        FastKubelet(KubeClient client, String jobName, int expected) {
            var pods = client.pods().inNamespace(NS);
            String rv = pods.list(ListOptions.none().withLimit(1L)).metadata().resourceVersion();
            watch = pods.watch(ListOptions.labelSelector(Job.JOB_NAME_LABEL + "=" + jobName)
                    .withResourceVersion(rv));
            reader = DaemonThreads.newThread("fast-kubelet", () -> {
                WatchEvent<Pod> e;
                while ((e = watch.next()) != null) {
                    Pod pod = e.object();
                    if (!WatchEvent.ADDED.equals(e.type())
                            || !seen.add(pod.metadata().uid())) {
                        continue;
                    }
                    if (seen.size() == expected) {
                        lastCreated = Instant.now();
                        allCreated.countDown();
                    }
                    writers.execute(() -> {
                        try {
                            pods.patchStatus(
                                    pod.metadata().name(), PatchType.MERGE, SUCCEEDED.formatted(Instant.now()));
                            statusWrites.incrementAndGet();
                        } catch (ApiException ex) {
                            System.err.println("status write failed: " + ex.getMessage());
                        }
                    });
                }
            });
            reader.start();
        }

        @Override
        public void close() {
            watch.close();
            writers.shutdownNow();
        }
    }
}
