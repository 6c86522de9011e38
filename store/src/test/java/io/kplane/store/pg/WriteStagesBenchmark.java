package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.ResourceKey;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where one write's time goes at concurrency 1, against references measured in the same run on the
 * same durable embedded PostgreSQL, in interleaved rounds so load from other processes hits all alike:
 * <ul>
 *   <li>raw single-row INSERT (autocommit: one statement, one WAL flush);</li>
 *   <li>the writer's transaction without its statement (BEGIN, lock the revision row, bump it, COMMIT);</li>
 *   <li>the writer's transaction exactly as {@link GroupCommitWriter} pipelines it (BEGIN, lock,
 *       {@link Statements#APPLY_ROUND} for one create, NOTIFY, COMMIT), each stage's completion timed;</li>
 *   <li>the small-batch path: one autocommit call of {@code kplane_apply_writes}
 *       ({@link Statements#APPLY_WRITES}) for one create;</li>
 *   <li>{@code store.create} end to end (enqueue, batch, the transaction, the caller's future), once
 *       with the default small-batch limit and once with {@code APPLY_ROUND} for every batch (two store
 *       instances on the same server, each open only during its own measurement);</li>
 *   <li>with {@code --batches 1,4,...}: PostgreSQL CPU per transaction and per write of a batch of n
 *       creates by {@code APPLY_ROUND} (BEGIN, lock, statement, NOTIFY, COMMIT) and by the function,
 *       the figures that set {@link StoreConfig#DEFAULT_SMALL_BATCH_LIMIT}.</li>
 * </ul>
 * Besides wall time it prints the CPU per write of the PostgreSQL server (postmaster and every
 * backend, from {@code /proc}) and of this JVM, which a loaded machine barely changes: a wall time far
 * above both CPU figures is waiting. A benchmark, not a test (it lives in this package because it runs
 * the writer's own statements). Run (test classpath, see store/README.md): {@code java -cp ...
 * io.kplane.store.pg.WriteStagesBenchmark [--writes 1000] [--rounds 3] [--batches 1,4,8,16,32,64]}.
 */
public final class WriteStagesBenchmark {
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
            + "\"namespace\":\"default\",\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
            + "\"image\":\"busybox\",\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";
    private static final String[] STAGES = {"BEGIN", "lock", "APPLY_ROUND", "NOTIFY", "COMMIT"};

    private WriteStagesBenchmark() {}

    @FunctionalInterface
    private interface Op {
        Future<?> run(int i);
    }

    public static void main(String[] args) throws Exception {
        int writes = 1000;
        int rounds = 3;
        int[] batches = {};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--writes" -> writes = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--batches" -> batches = Arrays.stream(args[++i].split(",", -1))
                        .mapToInt(Integer::parseInt)
                        .toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path dataDir = Files.createTempDirectory("kplane-stages-pg");
        Vertx vertx = Vertx.vertx();
        PgResourceStore store = PgResourceStore.open(vertx, StoreConfig.embedded(dataDir, freePort()))
                .await(120, TimeUnit.SECONDS);
        try {
            PgConnectOptions db = store.embeddedServer().connectOptions();
            long postmaster = Long.parseLong(
                    Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
            // the writer's session settings (PgResourceStore.writerOptions)
            PgConnection conn = PgConnection.connect(
                            vertx,
                            new PgConnectOptions(db)
                                    .setCachePreparedStatements(true)
                                    .setPipeliningLimit(256)
                                    .addProperty("plan_cache_mode", "force_generic_plan")
                                    .addProperty("enable_seqscan", "off"))
                    .await(10, TimeUnit.SECONDS);
            conn.query(
                            "CREATE TABLE bench_raw_insert (id bigserial PRIMARY KEY, name text NOT NULL, data text NOT NULL)")
                    .execute()
                    .await(10, TimeUnit.SECONDS);
            System.out.printf(
                    "one write at concurrency 1, %d writes per row and round, %d cores, load average %s%n",
                    writes, Runtime.getRuntime().availableProcessors(), loadAverage());
            for (int round = 1; round <= rounds; round++) {
                String r = "r" + round + "-";
                System.out.printf("round %d (load average %s)%n", round, loadAverage());
                measure("raw INSERT (autocommit)", writes, postmaster, i -> conn.preparedQuery(
                                "INSERT INTO bench_raw_insert (name, data) VALUES ($1, $2)")
                        .execute(Tuple.of(r + i, String.format(POD, r + i))));
                measure(
                        "BEGIN; lock; bump revision; COMMIT",
                        writes,
                        postmaster,
                        i -> Future.all(
                                conn.query("BEGIN").execute(),
                                conn.query(Statements.LOCK_REVISION).execute(),
                                conn.query("UPDATE revision SET rev = rev WHERE id = 1")
                                        .execute(),
                                conn.query("COMMIT").execute()));
                long[][] stages = new long[STAGES.length][writes];
                measure(
                        "the writer's transaction, one create",
                        writes,
                        postmaster,
                        i -> writerTransaction(conn, "t" + r + i, stages, i));
                for (int s = 0; s < STAGES.length; s++) {
                    System.out.printf("    %-12s %s%n", STAGES[s], percentiles(stages[s]));
                }
                measure("kplane_apply_writes, one create", writes, postmaster, i -> conn.preparedQuery(
                                Statements.APPLY_WRITES)
                        .execute(createParams(List.of("f" + r + i))));
                for (int limit : new int[] {StoreConfig.DEFAULT_SMALL_BATCH_LIMIT, 0}) {
                    PgResourceStore measured = PgResourceStore.open(
                                    vertx, StoreConfig.of(db).withSmallBatchLimit(limit))
                            .await(60, TimeUnit.SECONDS);
                    String prefix = "s" + limit + r;
                    measure(
                            limit == 0 ? "store.create, APPLY_ROUND always" : "store.create, small-batch path",
                            writes,
                            postmaster,
                            i -> measured.create(
                                    new ResourceKey("pods", "default", prefix + i),
                                    Json.read(String.format(POD, prefix + i), ObjectNode.class)));
                    measured.close();
                }
            }
            for (int n : batches) {
                int transactions = Math.max(50, writes / n);
                String b = "b" + n + "-";
                measureBatches("APPLY_ROUND transaction", n, transactions, postmaster, t -> {
                    List<String> names = names(b + "r" + t, n);
                    return Future.all(
                            conn.query("BEGIN").execute(),
                            conn.query(Statements.LOCK_REVISION).execute(),
                            conn.preparedQuery(Statements.APPLY_ROUND).execute(createParams(names)),
                            conn.query(Statements.NOTIFY).execute(),
                            conn.query("COMMIT").execute());
                });
                measureBatches("kplane_apply_writes call", n, transactions, postmaster, t -> conn.preparedQuery(
                                Statements.APPLY_WRITES)
                        .execute(createParams(names(b + "f" + t, n))));
            }
            conn.close();
        } finally {
            store.close();
            vertx.close().await(10, TimeUnit.SECONDS);
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The statements {@link GroupCommitWriter} pipelines for a batch of one create; each stage's completion is timed. */
    private static Future<?> writerTransaction(SqlConnection conn, String name, long[][] stages, int i) {
        Tuple params = createParams(List.of(name));
        long start = System.nanoTime();
        long[] done = new long[STAGES.length];
        List<Future<?>> all = new ArrayList<>();
        all.add(conn.query("BEGIN").execute().onComplete(x -> done[0] = System.nanoTime()));
        all.add(conn.query(Statements.LOCK_REVISION).execute().onComplete(x -> done[1] = System.nanoTime()));
        all.add(conn.preparedQuery(Statements.APPLY_ROUND)
                .execute(params)
                .onComplete(x -> done[2] = System.nanoTime()));
        all.add(conn.query(Statements.NOTIFY).execute().onComplete(x -> done[3] = System.nanoTime()));
        all.add(conn.query("COMMIT").execute().onComplete(x -> done[4] = System.nanoTime()));
        return Future.all(all).onSuccess(x -> {
            long previous = start;
            for (int s = 0; s < STAGES.length; s++) {
                stages[s][i] = done[s] - previous;
                previous = done[s];
            }
        });
    }

    private static List<String> names(String prefix, int n) {
        List<String> names = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            names.add(prefix + "-" + k);
        }
        return names;
    }

    /** The writer's parameters for a batch of unfenced pod creates. */
    private static Tuple createParams(List<String> names) {
        int n = names.size();
        String[] kinds = new String[n];
        String[] resources = new String[n];
        String[] namespaces = new String[n];
        String[] data = new String[n];
        Long[] expected = new Long[n];
        for (int k = 0; k < n; k++) {
            kinds[k] = "A";
            resources[k] = "pods";
            namespaces[k] = "default";
            data[k] = String.format(POD, names.get(k));
            expected[k] = 0L;
        }
        return Tuple.of(kinds, resources, namespaces, names.toArray(new String[0]), data, expected)
                .addLong(System.currentTimeMillis())
                .addValue(new String[n])
                .addValue(new String[n])
                .addValue(new String[n]);
    }

    /** PostgreSQL CPU per transaction of n writes, and per write, over {@code transactions} sequential ones. */
    private static void measureBatches(String label, int n, int transactions, long postmaster, Op op) throws Exception {
        long pgBefore = cpuTicks(postmaster);
        long start = System.nanoTime();
        for (int t = 0; t < transactions; t++) {
            op.run(t).await(30, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double pgMs = (cpuTicks(postmaster) - pgBefore) * 1000.0 / ticksPerSecond() / transactions;
        System.out.printf(
                "  batch of %3d creates, %-26s %6.0f writes/s  PostgreSQL CPU per transaction %.2f ms, per write %.3f ms"
                        + " (load average %s)%n",
                n, label, transactions * n / seconds, pgMs, pgMs / n, loadAverage());
    }

    private static void measure(String label, int writes, long postmaster, Op op) throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long[] wall = new long[writes];
        long jvmBefore = os.getProcessCpuTime();
        long pgBefore = cpuTicks(postmaster);
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            long t = System.nanoTime();
            op.run(i).await(30, TimeUnit.SECONDS);
            wall[i] = System.nanoTime() - t;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double jvmMs = (os.getProcessCpuTime() - jvmBefore) / 1e6 / writes;
        double pgMs = (cpuTicks(postmaster) - pgBefore) * 1000.0 / ticksPerSecond() / writes;
        System.out.printf(
                "  %-38s %6.0f/s  %s  CPU per write: PostgreSQL %.2f ms, this JVM %.2f ms%n",
                label, writes / seconds, percentiles(wall), pgMs, jvmMs);
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0);
        int n = sorted.length;
        return String.format(
                "mean %5.2f ms  p50 %5.2f  p90 %5.2f  p99 %6.2f",
                mean / 1e6, sorted[n / 2] / 1e6, sorted[n * 9 / 10] / 1e6, sorted[n * 99 / 100] / 1e6);
    }

    /**
     * utime + stime of a process and all its live descendants (the postmaster and its backends), plus
     * the process's ended children, in clock ticks.
     */
    private static long cpuTicks(long root) {
        long sum = 0;
        Deque<Long> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            long pid = todo.pop();
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                if (pid == root) {
                    // cutime + cstime: the backends that ended (the postmaster waited for them), so a
                    // session closed during a measurement does not take its CPU out of the sum
                    sum += Long.parseLong(f[13]) + Long.parseLong(f[14]);
                }
                try (var tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
                    for (Path task : tasks) {
                        String children =
                                Files.readString(task.resolve("children")).trim();
                        if (!children.isEmpty()) {
                            for (String c : children.split(" ", -1)) {
                                todo.push(Long.parseLong(c));
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // a backend that ended meanwhile: its CPU is no longer counted anywhere
            }
        }
        return sum;
    }

    /** USER_HZ; 100 on every Linux this runs on (getconf CLK_TCK). */
    private static long ticksPerSecond() {
        return 100;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ", -1)[0];
        } catch (IOException e) {
            return "?";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
