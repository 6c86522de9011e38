package io.kplane.apiserver.bench;

import io.kplane.store.bench.RawInsertBenchmark;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pod creates measured from a separate client process, as a client sees them, against a running API
 * server (e.g. the stack of {@code ./kplane up}, with its production JVM options and durable
 * PostgreSQL), next to raw single-row INSERTs on that server's PostgreSQL in the same run:
 * alternating one-second slices of each at the same concurrency, so that other load hits both alike.
 *
 * <p>HTTP/1.1, one connection per in-flight request (kubectl and client-go's default for a burst
 * of creates), {@code java.net.http} with blocking sends from {@code concurrency} threads. The pods
 * go to namespace {@code bench-creates} with {@code spec.nodeName} set to a node that does not exist,
 * so no scheduler binds them and no kubelet runs them.
 *
 * <p>Run: {@code java -cp <apiserver test classpath> io.kplane.apiserver.bench.ClientProcessCreateBenchmark
 * --server http://127.0.0.1:6443 --db postgresql://postgres@127.0.0.1:15432/postgres [--seconds 5]
 * [--concurrency 32] [--warmup-seconds 30] [--warmup-creates 5000] [--server-pid PID] [--pg-data DIR]}. Prints a
 * {@code ROW|...} line for {@code bench/run-all.sh}. With {@code --server-pid} (the API server's process, same
 * machine) it also prints the server's CPU per create in the measured slices and how many of its compiled
 * {@code io.kplane} methods are at each JIT tier ({@code jcmd}; tier 4 is C2, tier 3 C1 with full
 * profiling): whether the measured part ran the server's optimised code; with {@code --pg-data} (the
 * server's PostgreSQL data directory) PostgreSQL's CPU per create as well.
 */
public final class ClientProcessCreateBenchmark {
    private static final String NAMESPACE = "bench-creates";
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
            + "\"labels\":{\"app\":\"bench\"}},\"spec\":{\"nodeName\":\"bench-no-such-node\",\"containers\":[{\"name\":\"c\","
            + "\"image\":\"busybox\",\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";

    private ClientProcessCreateBenchmark() {}

    public static void main(String[] args) throws Exception {
        String server = "http://127.0.0.1:6443";
        String dbUrl = "postgresql://postgres@127.0.0.1:15432/postgres";
        int seconds = 5;
        int concurrency = 32;
        int warmupCreates = 5000;
        int warmupSeconds = 30;
        long serverPid = -1;
        java.nio.file.Path pgData = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> server = args[++i];
                case "--db" -> dbUrl = args[++i];
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                case "--warmup-creates" -> warmupCreates = Integer.parseInt(args[++i]);
                case "--warmup-seconds" -> warmupSeconds = Integer.parseInt(args[++i]);
                case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
                case "--pg-data" -> pgData = java.nio.file.Path.of(args[++i]);
                default -> throw new IllegalArgumentException(
                        "usage: --server URL --db postgresql://... [--seconds N] [--concurrency N] [--warmup-seconds N]"
                                + " [--warmup-creates N] [--server-pid PID] [--pg-data DIR]");
            }
        }
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> ns = http.send(
                HttpRequest.newBuilder(URI.create(server + "/api/v1/namespaces"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE
                                        + "\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (ns.statusCode() != 201 && ns.statusCode() != 409) {
            throw new IllegalStateException(
                    "cannot create namespace " + NAMESPACE + ": " + ns.statusCode() + " " + ns.body());
        }
        PgConnectOptions db = PgConnectOptions.fromUri(dbUrl);
        if (db.getPassword() == null || db.getPassword().isEmpty()) {
            db.setPassword("postgres"); // the embedded server's user
        }
        Vertx vertx = Vertx.vertx();
        String payload = String.format(POD, "raw");
        double apiOps = 0;
        double rawOps = 0;
        double apiCreates = 0;
        long serverTicks = 0;
        ServerProbe probe = new ServerProbe(null, pgData);
        ServerProbe.Snapshot[] apiSlices = new ServerProbe.Snapshot[2 * seconds];
        try {
            // unmeasured: connections, and the server's JIT on this path (CreateWarmUp)
            String target = server;
            int c = concurrency;
            // the server's JIT is in another process, out of sight: time and creates only
            CreateWarmUp.run(
                    " (CPU and JIT: this client's JVM)",
                    warmupSeconds,
                    warmupCreates,
                    Math.max(60, warmupSeconds),
                    false,
                    i -> creates(http, target, c, Duration.ofSeconds(1), "warm" + i));
            RawInsertBenchmark.measure(vertx, db, concurrency, Duration.ofSeconds(1), payload);
            for (int slice = 0; slice < seconds; slice++) {
                long ticksBefore = serverPid > 0 ? ServerProbe.ticks(serverPid) : 0;
                apiSlices[2 * slice] = probe.snapshot();
                double perSecond = creates(http, server, concurrency, Duration.ofSeconds(1), "s" + slice);
                apiSlices[2 * slice + 1] = probe.snapshot();
                serverTicks += serverPid > 0 ? ServerProbe.ticks(serverPid) - ticksBefore : 0;
                apiOps += perSecond;
                apiCreates += perSecond * (apiSlices[2 * slice + 1].nanos() - apiSlices[2 * slice].nanos()) / 1e9;
                rawOps += RawInsertBenchmark.measure(vertx, db, concurrency, Duration.ofSeconds(1), payload)
                        .perSecond();
            }
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
        double api = apiOps / seconds;
        double raw = rawOps / seconds;
        System.out.printf(
                "separate client process, HTTP/1.1, concurrency %d: %.0f pod creates/s, raw INSERT %.0f/s, ratio %.2f%n",
                concurrency, api, raw, api / raw);
        if (serverPid > 0) {
            System.out.printf(
                    "  API slices: server CPU %.3f ms/create; this client's %s%n",
                    serverTicks * 10.0 / Math.max(1, apiCreates), probe.describe(apiSlices, apiCreates));
            System.out.println("  server's compiled io.kplane methods by JIT tier after the measured slices: "
                    + jitTiers(serverPid));
        } else if (pgData != null) {
            System.out.println("  API slices: this client's " + probe.describe(apiSlices, apiCreates));
        }
        System.out.printf(
                "ROW|pod creates / raw INSERTs, concurrency %d, client in a separate process (the stack's API server)|%.0f/s = %.2f x raw|raw INSERT %.0f/s|>= 0.5|%s%n",
                concurrency, api, api / raw, raw, api / raw >= 0.5 ? "PASS" : "MISS");
        System.exit(0);
    }

    /** E.g. {@code tier 1: 134, tier 3: 272, tier 4: 16} from {@code jcmd PID Compiler.codelist}, or why not. */
    static String jitTiers(long pid) {
        try {
            Process jcmd = new ProcessBuilder(
                            java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(pid),
                            "Compiler.codelist")
                    .redirectErrorStream(true)
                    .start();
            java.util.Map<String, Integer> tiers = new java.util.TreeMap<>();
            try (var lines = new java.io.BufferedReader(
                    new java.io.InputStreamReader(jcmd.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    // "<compile id> <tier> <state> <method> [addresses]"
                    String[] fields = line.trim().split(" ");
                    if (fields.length > 3 && fields[3].startsWith("io.kplane.")) {
                        tiers.merge("tier " + fields[1], 1, Integer::sum);
                    }
                }
            }
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return tiers.isEmpty() ? "none listed (jcmd could not attach?)" : tiers.toString();
        } catch (java.io.IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }

    /** Closed loop: {@code concurrency} threads, each sending its next create when the last one answered. */
    private static double creates(HttpClient http, String server, int concurrency, Duration duration, String prefix)
            throws InterruptedException {
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong sequence = new AtomicLong();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        URI uri = URI.create(server + "/api/v1/namespaces/" + NAMESPACE + "/pods");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < deadline) {
                    String name = "p-" + run + "-" + prefix + "-" + sequence.incrementAndGet();
                    try {
                        HttpResponse<Void> r = http.send(
                                HttpRequest.newBuilder(uri)
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(String.format(POD, name)))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding());
                        (r.statusCode() == 201 ? done : failed).incrementAndGet();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failed.get() > 0) {
            System.out.printf("  (%d failed creates)%n", failed.get());
        }
        return done.get() / ((System.nanoTime() - start) / 1e9);
    }
}
