package io.kplane.apiserver.bench;

import ch.qos.logback.classic.Level;
import io.kplane.apiserver.ApiServer;
import io.kplane.apiserver.ApiServerOptions;
import io.kplane.store.bench.RawInsertBenchmark;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * API server benchmark, printing figures and ratios:
 * <ol>
 *   <li>pod create throughput over HTTP at concurrency 1, 8, 32 next to raw single-row PostgreSQL
 *       INSERT throughput at the same concurrency, measured in the same run on the same server;</li>
 *   <li>watch delivery latency (write acknowledged to the writer → event read by a watcher),
 *       p50/p99/max and delivered/expected, for 100 watchers at 1,000 and 100 writes/s and 2 watchers
 *       at 50 writes/s, the load running in a separate JVM ({@link WatchLoadClient});</li>
 *   <li>the same 100 × 1,000/s load against a bare chunked-HTTP fan-out ({@link RawFanOutServer}):
 *       the machine's floor for those deliveries.</li>
 * </ol>
 * Run (test classpath; the commands are in apiserver/README.md): {@code java -cp ... io.kplane.apiserver.bench.ApiServerBenchmark
 * [--seconds 5] [--warmup-seconds 30] [--warmup-creates 5000] [--warmup-max-seconds 120] [--watch-only] [--watchers 100 --rate 1000] [--url postgresql://...]} (embedded PostgreSQL in a
 * temporary directory unless {@code --url} names a scratch database).
 */
public final class ApiServerBenchmark {
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
            + "\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
            + "\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";

    private static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    public static void main(String[] args) throws Exception {
        // java.net.http's sendAsync hands every response's dependent actions to CompletableFuture's
        // default executor: the common ForkJoinPool, or, where its parallelism is 1 (two cores), a NEW
        // THREAD per task. JFR showed one thread started per create (14,504 in 100 s), measured beside
        // the server. Set before CompletableFuture is first used, so that it takes the common pool.
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null) {
            System.setProperty(COMMON_POOL_PARALLELISM, "2");
        }
        int seconds = intArg(args, "--seconds", 5);
        int watchers = intArg(args, "--watchers", 100);
        int rate = intArg(args, "--rate", 1000);
        String url = stringArg(args, "--url", null);
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.kplane.apiserver.access")).setLevel(Level.WARN);
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(Level.WARN);

        Path dataDir = url == null ? Files.createTempDirectory("kplane-bench-pg") : null;
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        // the client's threads are non-daemon: shut down in the finally block so that the JVM exits
        java.util.concurrent.ExecutorService clientThreads = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.net.http.HttpClient http =
                java.net.http.HttpClient.newBuilder().executor(clientThreads).build();
        StoreConfig config = url != null ? StoreConfig.external(url) : StoreConfig.embedded(dataDir, freePort());
        PgResourceStore store = PgResourceStore.open(serverVertx, config).await(120, TimeUnit.SECONDS);
        PgConnectOptions db =
                url != null ? config.connectOptions() : store.embeddedServer().connectOptions();
        ApiServerOptions options = new ApiServerOptions().port(0).maxRequestsInflight(0);
        ApiServer server = ApiServer.start(serverVertx, store, options).await(60, TimeUnit.SECONDS);
        try {
            System.out.printf(
                    "kplane API server benchmark (%d s per level, %d cores)%n",
                    seconds, Runtime.getRuntime().availableProcessors());
            boolean skipCreates = Arrays.asList(args).contains("--watch-only");
            ServerProbe probe = new ServerProbe(store, dataDir);
            if (!skipCreates) {
                CreateWarmUp.run(
                        ", concurrency 32 (CPU and JIT: client and server, one JVM)",
                        intArg(args, "--warmup-seconds", 30),
                        intArg(args, "--warmup-creates", 5000),
                        intArg(args, "--warmup-max-seconds", 120),
                        true,
                        probe,
                        i -> createThroughput(http, server.url(), 32, Duration.ofSeconds(1), "w" + i + "-"));
            }
            System.out.printf("%-12s %14s %14s %8s%n", "concurrency", "API creates/s", "raw inserts/s", "ratio");
            String payload = String.format(POD, "raw");
            int round = 0;
            for (int concurrency : skipCreates ? new int[0] : new int[] {1, 8, 32}) {
                // one-second slices, alternating, so that load from other processes hits both alike
                double apiOps = 0;
                double rawOps = 0;
                ServerProbe.Snapshot[] apiSlices = new ServerProbe.Snapshot[2 * seconds];
                double apiCreates = 0;
                for (int slice = 0; slice < seconds; slice++) {
                    round++;
                    apiSlices[2 * slice] = probe.snapshot();
                    double perSecond =
                            createThroughput(http, server.url(), concurrency, Duration.ofSeconds(1), "c" + round + "-");
                    apiSlices[2 * slice + 1] = probe.snapshot();
                    apiOps += perSecond;
                    apiCreates += perSecond * (apiSlices[2 * slice + 1].nanos() - apiSlices[2 * slice].nanos()) / 1e9;
                    rawOps += RawInsertBenchmark.measure(clientVertx, db, concurrency, Duration.ofSeconds(1), payload)
                            .perSecond();
                }
                System.out.printf(
                        "%-12d %14.0f %14.0f %8.2f%n",
                        concurrency, apiOps / seconds, rawOps / seconds, apiOps / rawOps);
                System.out.println("             API slices: " + probe.describe(apiSlices, apiCreates));
            }
            int[][] scenarios = Arrays.asList(args).contains("--rate")
                            || Arrays.asList(args).contains("--watchers")
                    ? new int[][] {{watchers, rate}}
                    : new int[][] {{100, 1000}, {100, 100}, {2, 50}};
            watchLatency(http, server.url(), options.eventLoops(), scenarios, Math.max(5, seconds * 2));
        } finally {
            server.close();
            store.close();
            clientVertx.close().await(10, TimeUnit.SECONDS);
            serverVertx.close().await(10, TimeUnit.SECONDS);
            clientThreads.shutdownNow();
            if (dataDir != null) {
                try (var paths = Files.walk(dataDir)) {
                    paths.sorted(java.util.Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** Closed-loop creates: {@code concurrency} requests always in flight for {@code duration}. */
    static double createThroughput(
            java.net.http.HttpClient client, String base, int concurrency, Duration duration, String prefix) {
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong sequence = new AtomicLong();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        List<java.util.concurrent.CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            java.util.concurrent.CompletableFuture<Void> finished = new java.util.concurrent.CompletableFuture<>();
            createLoop(client, base, prefix, sequence, deadline, done, errors, finished);
            loops.add(finished);
        }
        java.util.concurrent.CompletableFuture.allOf(loops.toArray(java.util.concurrent.CompletableFuture[]::new))
                .orTimeout(duration.toSeconds() + 60, TimeUnit.SECONDS)
                .join();
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (errors.get() > 0) {
            System.out.printf("  (%d failed requests at concurrency %d)%n", errors.get(), concurrency);
        }
        return done.get() / elapsed;
    }

    private static void createLoop(
            java.net.http.HttpClient client,
            String base,
            String prefix,
            AtomicLong sequence,
            long deadline,
            AtomicLong done,
            AtomicLong errors,
            java.util.concurrent.CompletableFuture<Void> finished) {
        if (System.nanoTime() >= deadline) {
            finished.complete(null);
            return;
        }
        post(client, base, "default", String.format(POD, prefix + sequence.incrementAndGet()))
                .whenComplete((code, t) -> {
                    if (t == null && code == 201) {
                        done.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                    }
                    createLoop(client, base, prefix, sequence, deadline, done, errors, finished);
                });
    }

    private static java.util.concurrent.CompletableFuture<Integer> post(
            java.net.http.HttpClient client, String base, String namespace, String body) {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(base + "/api/v1/namespaces/" + namespace + "/pods"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .build();
        return client.sendAsync(request, java.net.http.HttpResponse.BodyHandlers.discarding())
                .thenApply(java.net.http.HttpResponse::statusCode);
    }

    /**
     * Watch delivery latency for each scenario, the load (watchers and writer) in a separate JVM
     * ({@link WatchLoadClient}); then the same load against {@link RawFanOutServer}, the machine's
     * floor for fanning lines of the same size out to the same number of streams.
     */
    static void watchLatency(
            java.net.http.HttpClient client, String base, int eventLoops, int[][] scenarios, int seconds)
            throws Exception {
        System.out.printf(
                "watch delivery latency, write acknowledged -> line read by the watcher, load in a separate"
                        + " JVM, %d s per scenario (target: p99 < 50 ms at 100 watchers, 1000 writes/s)%n",
                seconds);
        long bytesPerLine = 0;
        int round = 0;
        for (int[] scenario : scenarios) {
            String namespace = "watch-" + (++round);
            client.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/api/v1/namespaces"))
                            .header("Content-Type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                    "{\"metadata\":{\"name\":\"" + namespace + "\"}}"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding());
            String pods = base + "/api/v1/namespaces/" + namespace + "/pods";
            double[] result = runLoad("api", pods + "?watch=true", pods, scenario[0], scenario[1], seconds);
            if (result != null && result[5] > 0) {
                bytesPerLine = (long) result[5];
            }
        }
        try (RawFanOutServer raw = RawFanOutServer.start(eventLoops, (int) Math.max(bytesPerLine, 600))) {
            String url = "http://127.0.0.1:" + raw.port();
            runLoad("floor", url + "/watch", url + "/publish", scenarios[0][0], scenarios[0][1], seconds);
        }
        System.out.println("  floor = the same load against a bare Vert.x chunked fan-out of lines of the same size"
                + " (no store, no JSON): what the deliveries alone cost on this machine");
    }

    /** Runs one {@link WatchLoadClient}, echoes its output, returns its RESULT figures (null on failure). */
    private static double[] runLoad(String label, String watchUrl, String postUrl, int watchers, int rate, int seconds)
            throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long gcBefore = gcMillis();
        long countBefore = gcCount();
        long wallBefore = System.nanoTime();
        Process process = new ProcessBuilder(
                        javaBin,
                        "-Xms256m",
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WatchLoadClient.class.getName(),
                        "--label",
                        label,
                        "--watch-url",
                        watchUrl,
                        "--post-url",
                        postUrl,
                        "--watchers",
                        Integer.toString(watchers),
                        "--rate",
                        Integer.toString(rate),
                        "--seconds",
                        Integer.toString(seconds))
                .redirectErrorStream(true)
                .start();
        double[] result = null;
        try (var out = new java.io.BufferedReader(
                new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    String[] f = line.substring(7).trim().split(" ");
                    if (f.length == 6) {
                        result = Arrays.stream(f)
                                .mapToDouble(Double::parseDouble)
                                .toArray();
                    }
                } else if (!line.contains("SLF4J") && !line.startsWith("[")) {
                    System.out.println("  " + line);
                }
            }
        }
        process.waitFor(60, TimeUnit.SECONDS);
        // CPU and GC of the server's JVM over the client's whole run (warm-up included): unlike
        // latency, these hardly move with what else runs on the machine
        double wall = (System.nanoTime() - wallBefore) / 1e9;
        System.out.printf(
                "         server JVM: %.0f%% of one core, %d GCs, %d ms in GC over %.0f s%n",
                (os.getProcessCpuTime() - cpuBefore) / 1e9 / wall * 100,
                gcCount() - countBefore,
                gcMillis() - gcBefore,
                wall);
        return result;
    }

    private static long gcMillis() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime)
                .sum();
    }

    private static long gcCount() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionCount)
                .sum();
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static int intArg(String[] args, String name, int dflt) {
        String v = stringArg(args, name, null);
        return v == null ? dflt : Integer.parseInt(v);
    }

    private static String stringArg(String[] args, String name, String dflt) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return dflt;
    }
}
