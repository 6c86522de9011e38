package io.kplane.apiserver.bench;

import ch.qos.logback.classic.Level;
import io.kplane.apiserver.ApiServer;
import io.kplane.apiserver.ApiServerOptions;
import io.kplane.store.bench.RawInsertBenchmark;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import io.vertx.pgclient.PgConnectOptions;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * API server benchmark, printing figures and ratios:
 * <ol>
 *   <li>pod create throughput over HTTP at concurrency 1, 8, 32 next to raw single-row PostgreSQL
 *       INSERT throughput at the same concurrency, measured in the same run on the same server;</li>
 *   <li>watch delivery latency (write acknowledged to the writer → event received by a watcher),
 *       p50/p99/max with 100 concurrent watchers while pods are created at 1,000 writes/s.</li>
 * </ol>
 * Run: {@code java -cp apiserver/target/kplane-apiserver.jar io.kplane.apiserver.bench.ApiServerBenchmark
 * [--seconds 5] [--watchers 100] [--rate 1000] [--url postgresql://...]} (embedded PostgreSQL in a
 * temporary directory unless {@code --url} names a scratch database).
 */
public final class ApiServerBenchmark {
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
            + "\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
            + "\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";

    public static void main(String[] args) throws Exception {
        int seconds = intArg(args, "--seconds", 5);
        int watchers = intArg(args, "--watchers", 100);
        int rate = intArg(args, "--rate", 1000);
        String url = stringArg(args, "--url", null);
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.kplane.apiserver.access")).setLevel(Level.WARN);
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);

        Path dataDir = url == null ? Files.createTempDirectory("kplane-bench-pg") : null;
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        // the client's threads are non-daemon: shut down in the finally block so that the JVM exits
        java.util.concurrent.ExecutorService clientThreads = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().executor(clientThreads).build();
        StoreConfig config = url != null ? StoreConfig.external(url) : StoreConfig.embedded(dataDir, freePort());
        PgResourceStore store = PgResourceStore.open(serverVertx, config).await(120, TimeUnit.SECONDS);
        PgConnectOptions db = url != null ? config.connectOptions() : store.embeddedServer().connectOptions();
        ApiServer server = ApiServer.start(serverVertx, store, new ApiServerOptions().port(0)
                .maxRequestsInflight(0)).await(60, TimeUnit.SECONDS);
        try {
            System.out.printf("kplane API server benchmark (%d s per level, %d cores)%n", seconds,
                    Runtime.getRuntime().availableProcessors());
            System.out.printf("%-12s %14s %14s %8s%n", "concurrency", "API creates/s", "raw inserts/s", "ratio");
            String payload = String.format(POD, "raw");
            int round = 0;
            boolean skipCreates = Arrays.asList(args).contains("--watch-only");
            for (int concurrency : skipCreates ? new int[0] : new int[]{1, 8, 32}) {
                // one-second slices, alternating, so that load from other processes hits both alike
                double apiOps = 0;
                double rawOps = 0;
                for (int slice = 0; slice < seconds; slice++) {
                    round++;
                    apiOps += createThroughput(http, server.url(), concurrency, Duration.ofSeconds(1),
                            "c" + round + "-");
                    rawOps += RawInsertBenchmark.measure(clientVertx, db, concurrency, Duration.ofSeconds(1), payload)
                            .perSecond();
                }
                System.out.printf("%-12d %14.0f %14.0f %8.2f%n", concurrency, apiOps / seconds, rawOps / seconds,
                        apiOps / rawOps);
            }
            watchLatency(http, server.url(), watchers, rate, Duration.ofSeconds(Math.max(5, seconds * 2)));
        } finally {
            server.close();
            store.close();
            clientVertx.close().await(10, TimeUnit.SECONDS);
            serverVertx.close().await(10, TimeUnit.SECONDS);
            clientThreads.shutdownNow();
            if (dataDir != null) {
                try (var paths = Files.walk(dataDir)) {
                    paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** Closed-loop creates: {@code concurrency} requests always in flight for {@code duration}. */
    static double createThroughput(java.net.http.HttpClient client, String base, int concurrency, Duration duration,
                                   String prefix) {
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
                .orTimeout(duration.toSeconds() + 60, TimeUnit.SECONDS).join();
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (errors.get() > 0) {
            System.out.printf("  (%d failed requests at concurrency %d)%n", errors.get(), concurrency);
        }
        return done.get() / elapsed;
    }

    private static void createLoop(java.net.http.HttpClient client, String base, String prefix, AtomicLong sequence,
                                   long deadline, AtomicLong done, AtomicLong errors,
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

    private static java.util.concurrent.CompletableFuture<Integer> post(java.net.http.HttpClient client, String base,
                                                                       String namespace, String body) {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(base + "/api/v1/namespaces/" + namespace + "/pods"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build();
        return client.sendAsync(request, java.net.http.HttpResponse.BodyHandlers.discarding())
                .thenApply(java.net.http.HttpResponse::statusCode);
    }

    /**
     * {@code watchers} watch streams on one namespace; pods are created there at {@code rate} per
     * second. Latency of one delivery = time the watcher read the ADDED line − time the creating
     * request's response arrived (negative when the event beat the response: counted as 0).
     */
    static void watchLatency(java.net.http.HttpClient client, String base, int watchers, int rate, Duration duration)
            throws Exception {
        post(client, base, "default", "{}").join(); // warm the connection pool
        client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/api/v1/namespaces"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"watch\"}}"))
                .build(), java.net.http.HttpResponse.BodyHandlers.discarding());
        int total = (int) (rate * duration.toSeconds());
        long[] ackNanos = new long[total];
        long[][] receivedNanos = new long[watchers][total];
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(watchers);
        List<java.io.InputStream> streams = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int w = 0; w < watchers; w++) {
            long[] mine = receivedNanos[w];
            Thread reader = new Thread(() -> {
                try {
                    // one client per watcher: a stream each, like separate informer processes
                    java.net.http.HttpResponse<java.io.InputStream> r = java.net.http.HttpClient.newHttpClient()
                            .send(java.net.http.HttpRequest
                                    .newBuilder(java.net.URI.create(base + "/api/v1/namespaces/watch/pods?watch=true"))
                                    .build(), java.net.http.HttpResponse.BodyHandlers.ofInputStream());
                    streams.add(r.body());
                    ready.countDown();
                    readLines(r.body(), mine);
                } catch (Exception e) {
                    if (ready.getCount() > 0) {
                        System.out.println("  watch failed: " + e);
                    }
                }
            }, "bench-watch-" + w);
            reader.setDaemon(true);
            reader.start();
        }
        ready.await(60, TimeUnit.SECONDS);
        long start = System.nanoTime();
        long periodNanos = 1_000_000_000L / rate;
        AtomicLong acked = new AtomicLong();
        // open-loop schedule at the target rate: each write is issued when it is due
        for (int i = 0; i < total; i++) {
            long due = start + i * periodNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            int index = i;
            post(client, base, "watch", String.format(POD, "w-" + i)).whenComplete((code, t) -> {
                ackNanos[index] = System.nanoTime();
                acked.incrementAndGet();
            });
        }
        long writeNanos = System.nanoTime() - start;
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < settle && (acked.get() < total || !allDelivered(receivedNanos, total))) {
            TimeUnit.MILLISECONDS.sleep(50); // benchmark: let the last events arrive
        }
        long[] latencies = new long[watchers * total];
        int n = 0;
        int missing = 0;
        for (long[] mine : receivedNanos) {
            for (int i = 0; i < total; i++) {
                if (mine[i] == 0 || ackNanos[i] == 0) {
                    missing++;
                } else {
                    latencies[n++] = Math.max(0, mine[i] - ackNanos[i]);
                }
            }
        }
        for (java.io.InputStream in : streams) {
            try {
                in.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        System.out.printf("watch delivery: %d watchers, %d writes at %.0f writes/s achieved (target %d)%n",
                watchers, total, total / (writeNanos / 1e9), rate);
        if (n == 0) {
            System.out.printf("  no deliveries measured (%d acknowledged writes)%n", acked.get());
        } else {
            System.out.printf("  latency write-ack -> event: p50 %.1f ms, p99 %.1f ms, max %.1f ms "
                            + "(%d deliveries, %d missing; target p99 < 50 ms)%n", ms(sorted[n / 2]),
                    ms(sorted[(int) Math.min(n - 1, (long) n * 99 / 100)]), ms(sorted[n - 1]), n, missing);
        }
    }

    /** Reads newline-delimited events, recording when each {@code w-<index>} ADDED line arrived. */
    private static void readLines(java.io.InputStream in, long[] received) throws java.io.IOException {
        byte[] chunk = new byte[64 * 1024];
        Buffer line = Buffer.buffer(4096);
        int read;
        while ((read = in.read(chunk)) > 0) {
            long now = System.nanoTime();
            int from = 0;
            for (int i = 0; i < read; i++) {
                if (chunk[i] == '\n') {
                    line.appendBytes(chunk, from, i - from);
                    int index = indexOf(line);
                    if (index >= 0 && index < received.length && received[index] == 0) {
                        received[index] = now;
                    }
                    line = Buffer.buffer(4096);
                    from = i + 1;
                }
            }
            line.appendBytes(chunk, from, read - from);
        }
    }

    private static boolean allDelivered(long[][] received, int total) {
        for (long[] mine : received) {
            if (mine[total - 1] == 0) {
                return false;
            }
        }
        return true;
    }

    private static final byte[] ADDED = "{\"type\":\"ADDED\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NAME = "\"name\":\"w-".getBytes(StandardCharsets.US_ASCII);

    /** The index of {@code "name":"w-<index>"} in an ADDED line, scanning bytes (the client must be cheap). */
    static int indexOf(Buffer line) {
        int len = line.length();
        if (len < ADDED.length) {
            return -1;
        }
        for (int i = 0; i < ADDED.length; i++) {
            if (line.getByte(i) != ADDED[i]) {
                return -1;
            }
        }
        outer:
        for (int i = ADDED.length; i + NAME.length < len; i++) {
            for (int j = 0; j < NAME.length; j++) {
                if (line.getByte(i + j) != NAME[j]) {
                    continue outer;
                }
            }
            int value = 0;
            for (int k = i + NAME.length; k < len; k++) {
                byte b = line.getByte(k);
                if (b == '"') {
                    return value;
                }
                if (b < '0' || b > '9') {
                    return -1;
                }
                value = value * 10 + (b - '0');
            }
            return -1;
        }
        return -1;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
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
