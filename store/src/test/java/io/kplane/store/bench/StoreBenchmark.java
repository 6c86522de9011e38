package io.kplane.store.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.ResourceKey;
import io.kplane.store.pg.EmbeddedPostgresServer;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.PgUrls;
import io.kplane.store.pg.StoreConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Store create throughput against the raw single-row INSERT limit, at concurrency 1, 8 and 32.
 * Run (test classpath; the commands are in store/README.md): {@code java -cp ... io.kplane.store.bench.StoreBenchmark
 * [--seconds 5] [--url postgresql://...]}. Without --url it uses a throw-away embedded
 * PostgreSQL; with --url, give it an empty scratch database (it creates tables there).
 */
public final class StoreBenchmark {

    private StoreBenchmark() {}

    public static void main(String[] args) throws Exception {
        Duration duration = Duration.ofSeconds(5);
        String url = null;
        int[] concurrency = {1, 8, 32};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> duration = Duration.ofSeconds(Long.parseLong(args[++i]));
                case "--url" -> url = args[++i];
                case "--concurrency" -> concurrency = java.util.Arrays.stream(args[++i].split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray();
                default -> throw new IllegalArgumentException(
                        "usage: [--seconds N] [--concurrency 1,8,32] [--url postgresql://...]");
            }
        }
        EmbeddedPostgresServer embedded = null;
        PgConnectOptions db;
        if (url == null) {
            embedded = EmbeddedPostgresServer.start(Files.createTempDirectory("kplane-bench-pg"), freePort());
            db = embedded.connectOptions();
        } else {
            db = PgUrls.parse(url);
        }
        Vertx vertx = Vertx.vertx();
        PgResourceStore store = RawInsertBenchmark.block(PgResourceStore.open(vertx, StoreConfig.of(db)));
        String payload = samplePod("default", "bench").toString();
        System.out.printf(
                "payload %d bytes, %d s per measurement, %d cores%n",
                payload.length(), duration.toSeconds(), Runtime.getRuntime().availableProcessors());
        System.out.printf("%-12s %16s %16s %8s%n", "concurrency", "raw insert/s", "store create/s", "ratio");
        try {
            for (int c : concurrency) {
                // Interleave 1-second slices of raw and store so that load from other processes on
                // this machine affects both sides of the ratio alike.
                RawInsertBenchmark.measure(vertx, db, c, Duration.ofSeconds(1), payload); // warm-up
                measureCreates(store, c, Duration.ofSeconds(1), "warm" + c);
                double rawOps = 0;
                double rawSeconds = 0;
                double storeOps = 0;
                double storeSeconds = 0;
                for (long slice = 0; slice < duration.toSeconds(); slice++) {
                    RawInsertBenchmark.Result raw =
                            RawInsertBenchmark.measure(vertx, db, c, Duration.ofSeconds(1), payload);
                    rawOps += raw.operations();
                    rawSeconds += raw.elapsed().toNanos() / 1e9;
                    long start = System.nanoTime();
                    double rate = measureCreates(store, c, Duration.ofSeconds(1), "run" + c + "-" + slice);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    storeOps += rate * seconds;
                    storeSeconds += seconds;
                }
                double rawRate = rawOps / rawSeconds;
                double storeRate = storeOps / storeSeconds;
                System.out.printf("%-12d %16.0f %16.0f %8.2f%n", c, rawRate, storeRate, storeRate / rawRate);
            }
        } finally {
            store.close();
            RawInsertBenchmark.block(vertx.close());
            if (embedded != null) {
                embedded.stop();
            }
        }
    }

    /** Creates per second with {@code concurrency} clients each creating objects one after the other. */
    public static double measureCreates(PgResourceStore store, int concurrency, Duration duration, String prefix) {
        AtomicLong count = new AtomicLong();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        List<Future<Void>> clients = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            Promise<Void> done = Promise.promise();
            createLoop(store, prefix + "-" + i, deadline, count, done);
            clients.add(done.future());
        }
        RawInsertBenchmark.block(Future.all(clients));
        return count.get() * 1e9 / (System.nanoTime() - start);
    }

    private static void createLoop(
            PgResourceStore store, String client, long deadline, AtomicLong count, Promise<Void> done) {
        if (System.nanoTime() >= deadline) {
            done.complete();
            return;
        }
        String name = client + "-" + count.get();
        store.create(new ResourceKey("pods", "default", name), samplePod("default", name))
                .onSuccess(o -> {
                    count.incrementAndGet();
                    createLoop(store, client, deadline, count, done);
                })
                .onFailure(done::fail);
    }

    static ObjectNode samplePod(String namespace, String name) {
        ObjectNode pod = Json.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name)
                .put("namespace", namespace)
                .put("uid", "6f1c2d34-9a8b-4c7d-8e6f-0123456789ab")
                .put("creationTimestamp", "2030-01-01T00:00:00Z");
        meta.putObject("labels").put("app", "bench").put("batch.kubernetes.io/job-name", "bench");
        ObjectNode container = pod.putObject("spec")
                .put("restartPolicy", "Never")
                .putArray("containers")
                .addObject();
        container
                .put("name", "main")
                .put("image", "busybox")
                .putArray("command")
                .add("sh")
                .add("-c")
                .add("echo hello; sleep 1");
        container
                .putObject("resources")
                .putObject("requests")
                .put("cpu", "100m")
                .put("memory", "64Mi");
        pod.putObject("status").put("phase", "Pending").put("qosClass", "Burstable");
        return pod;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
