package io.kplane.client.bench;

import io.kplane.api.core.Pod;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.TestPods;
import io.kplane.client.informer.Indexers;
import io.kplane.client.informer.ListerWatcher;
import io.kplane.client.informer.ReflectorOptions;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedIndexInformer;
import io.kplane.client.time.Clock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An informer over N pods (default 10,000) on a real API server and PostgreSQL: time to list and sync,
 * the heap its cache takes per object, and how fast it follows a burst of updates. Ratios compare with
 * the physical limits measured in the same run: a bare paged HTTP list (no decoding, no cache) and the
 * JSON size of the objects.
 *
 * <pre>mvn -q -pl client exec:java -Dexec.classpathScope=test -Dexec.mainClass=io.kplane.client.bench.InformerBenchmark [-Dexec.args="10000 2000"]</pre>
 */
public final class InformerBenchmark {
    private static final String NS = "bench";

    private InformerBenchmark() {}

    public static void main(String[] args) throws Exception {
        int objects = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int updates = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.forServer(api.url());
            TestPods.namespace(client, NS);
            ResourceClient<Pod> pods = client.pods().inNamespace(NS);

            long t0 = System.nanoTime();
            parallel(
                    objects,
                    16,
                    i -> pods.create(
                            TestPods.pod(NS, "pod-" + i, Map.of("app", "bench", "shard", Integer.toString(i % 10)))));
            double createSeconds = seconds(t0);
            System.out.printf(
                    "created %d pods in %.2f s (%.0f pods/s, 16 concurrent clients)%n",
                    objects, createSeconds, objects / createSeconds);

            // Physical limit for the list: the same pages over HTTP, bytes only (best of two, the first warms up).
            long rawBytes = 0;
            double rawListSeconds = Double.MAX_VALUE;
            for (int round = 0; round < 2; round++) {
                rawBytes = 0;
                long r0 = System.nanoTime();
                String token = null;
                do {
                    Map<String, String> query = new java.util.LinkedHashMap<>();
                    query.put("limit", "500");
                    if (token != null) {
                        query.put("continue", token);
                    }
                    var response =
                            client.raw().request("GET", pods.collectionPath(NS), query, null, null, "application/json");
                    rawBytes += response.body().length;
                    token = io.kplane.api.json.Json.tree(response.bodyText())
                            .path("metadata")
                            .path("continue")
                            .asText("");
                } while (!token.isEmpty());
                rawListSeconds = Math.min(rawListSeconds, seconds(r0));
            }

            long heapBefore = usedHeapAfterGc();
            SharedIndexInformer<Pod> informer = new SharedIndexInformer<>(
                    "pods",
                    ListerWatcher.of(pods),
                    Clock.system(),
                    ReflectorOptions.DEFAULT.withPageSize(500),
                    Indexers.standard());
            Map<String, Long> updateSentAt = new ConcurrentHashMap<>();
            List<Long> latenciesNanos = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger seenUpdates = new AtomicInteger();
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onUpdate(Pod oldObj, Pod newObj) {
                    String gen = newObj.metadata().labelsOrEmpty().get("gen");
                    Long sent = gen == null ? null : updateSentAt.get(newObj.name() + "/" + gen);
                    if (sent != null) {
                        latenciesNanos.add(System.nanoTime() - sent);
                        seenUpdates.incrementAndGet();
                    }
                }
            });
            long s0 = System.nanoTime();
            informer.start();
            if (!informer.waitForSync(Duration.ofMinutes(5))) {
                throw new IllegalStateException("informer did not sync");
            }
            double syncSeconds = seconds(s0);
            long heapAfter = usedHeapAfterGc();
            int cached = informer.indexer().size();
            long perObject = (heapAfter - heapBefore) / Math.max(1, cached);

            System.out.printf(
                    "informer synced %d pods in %.2f s; bare paged HTTP list of the same pages: %.2f s "
                            + "(informer/bare = %.2f)%n",
                    cached, syncSeconds, rawListSeconds, syncSeconds / rawListSeconds);
            System.out.printf(
                    "cache heap after GC: %.1f MiB total, %d bytes per pod (JSON on the wire: %d bytes per pod, "
                            + "heap/JSON = %.2f)%n",
                    (heapAfter - heapBefore) / 1048576.0,
                    perObject,
                    rawBytes / objects,
                    (double) perObject / (rawBytes / objects));

            long u0 = System.nanoTime();
            parallel(updates, 16, i -> {
                String name = "pod-" + (i % objects);
                String gen = "u" + i;
                updateSentAt.put(name + "/" + gen, System.nanoTime());
                pods.patch(name, PatchType.MERGE, "{\"metadata\":{\"labels\":{\"gen\":\"" + gen + "\"}}}");
            });
            double writeSeconds = seconds(u0);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (seenUpdates.get() < updates && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            double followSeconds = seconds(u0);
            long[] sorted =
                    latenciesNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(
                    "%d updates written in %.2f s (%.0f/s); informer saw %d of them %.0f ms after the last write%n",
                    updates,
                    writeSeconds,
                    updates / writeSeconds,
                    seenUpdates.get(),
                    (followSeconds - writeSeconds) * 1000);
            if (sorted.length > 0) {
                System.out.printf(
                        "write-to-handler latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                        pct(sorted, 0.50), pct(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
            }
            boolean inSync = pods.listAll(ListOptions.none(), 500).stream().allMatch(p -> p.metadata()
                    .resourceVersion()
                    .equals(informer.indexer().getByKey(p.key()).metadata().resourceVersion()));
            System.out.printf("cache equals server after the burst: %s%n", inSync);
            informer.stop();
        }
        System.exit(0);
    }

    private interface IndexedTask {
        void run(int i) throws Exception;
    }

    private static void parallel(int count, int threads, IndexedTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    task.run(n);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * p))] / 1e6;
    }

    @SuppressWarnings("unused")
    private static String describe(long[] values) {
        return Arrays.toString(values);
    }
}
