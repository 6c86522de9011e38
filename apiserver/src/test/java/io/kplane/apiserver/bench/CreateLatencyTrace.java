package io.kplane.apiserver.bench;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.apiserver.ApiServer;
import io.kplane.apiserver.ApiServerOptions;
import io.kplane.store.ResourceKey;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * One create at a time, latency per path, same run: where a lone create's time goes. Compares
 * the API over three clients (java.net.http as ApiServerBenchmark uses it, i.e. h2c; java.net.http
 * HTTP/1.1; a blocking raw-socket HTTP/1.1 client), {@code store.create} called in-process with
 * no HTTP, and a raw single-row INSERT, interleaved in rounds so other load hits each alike.
 *
 * <p>Run (test classpath, see apiserver/README.md): {@code java -cp ... io.kplane.apiserver.bench.CreateLatencyTrace
 * [--creates 400] [--rounds 3] [--warmup-creates 5000]}.
 */
public final class CreateLatencyTrace {
    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
            + "\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
            + "\"command\":[\"sleep\",\"1\"]}],\"restartPolicy\":\"Never\"}}";

    private CreateLatencyTrace() {}

    interface Create {
        void run(String name) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int creates = intArg(args, "--creates", 400);
        int rounds = intArg(args, "--rounds", 3);
        int warmup = intArg(args, "--warmup-creates", 5000);
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(Level.WARN);
        Path dataDir = Files.createTempDirectory("kplane-trace-pg");
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        StoreConfig config = StoreConfig.embedded(dataDir, freePort());
        PgResourceStore store = PgResourceStore.open(serverVertx, config).await(120, TimeUnit.SECONDS);
        PgConnectOptions db = store.embeddedServer().connectOptions();
        ApiServer server = ApiServer.start(
                        serverVertx, store, new ApiServerOptions().port(0).maxRequestsInflight(0))
                .await(60, TimeUnit.SECONDS);
        java.net.http.HttpClient h2 = java.net.http.HttpClient.newBuilder().build();
        java.net.http.HttpClient h1 = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build();
        URI pods = URI.create(server.url() + "/api/v1/namespaces/default/pods");
        RawHttp raw = new RawHttp("127.0.0.1", server.port(), "/api/v1/namespaces/default/pods");
        SqlConnection pg = PgConnection.connect(clientVertx, new PgConnectOptions(db).setCachePreparedStatements(true))
                .await(30, TimeUnit.SECONDS);
        pg.query("CREATE TABLE IF NOT EXISTS bench_raw_insert (id bigserial PRIMARY KEY, name text NOT NULL,"
                        + " data text NOT NULL)")
                .execute()
                .await(30, TimeUnit.SECONDS);
        String payload = String.format(POD, "raw");
        try {
            if (warmup > 0) {
                CreateWarmUp.run(
                        ", concurrency 32",
                        0,
                        warmup,
                        180,
                        false,
                        i -> ApiServerBenchmark.createThroughput(
                                h1, server.url(), 32, java.time.Duration.ofSeconds(1), "w" + i + "-"));
            }
            io.vertx.core.http.HttpClientAgent vx1 = clientVertx.createHttpClient(
                    new io.vertx.core.http.HttpClientOptions()
                            .setDefaultPort(server.port())
                            .setDefaultHost("127.0.0.1"),
                    new io.vertx.core.http.PoolOptions().setHttp1MaxSize(1));
            io.vertx.core.http.HttpClientAgent vx2 =
                    clientVertx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
                            .setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2)
                            .setHttp2ClearTextUpgrade(false)
                            .setDefaultPort(server.port())
                            .setDefaultHost("127.0.0.1"));
            String[] labels = {
                "Vert.x HTTP/1.1",
                "Vert.x h2c prior knowledge",
                "h2c java.net.http",
                "HTTP/1.1 java.net.http",
                "HTTP/1.1 raw socket",
                "store.create",
                "raw INSERT"
            };
            Create[] paths = {
                name -> vertxPost(vx1, name),
                name -> vertxPost(vx2, name),
                name -> post(h2, pods, name),
                name -> post(h1, pods, name),
                name -> {
                    int code = raw.post(String.format(POD, name));
                    if (code != 201) {
                        throw new IllegalStateException("HTTP " + code);
                    }
                },
                name -> store.create(new ResourceKey("pods", "default", name), (ObjectNode)
                                Json.mapper().readTree(String.format(POD, name)))
                        .await(30, TimeUnit.SECONDS),
                name -> pg.preparedQuery("INSERT INTO bench_raw_insert (name, data) VALUES ($1, $2)")
                        .execute(Tuple.of(name, payload))
                        .await(30, TimeUnit.SECONDS),
            };
            for (int round = 1; round <= rounds; round++) {
                System.out.printf("round %d, %d sequential creates per path (load %s)%n", round, creates, load());
                for (int p = 0; p < paths.length; p++) {
                    long[] micros = new long[creates];
                    double[] before = serverCreates(server);
                    long jvmCpu = processCpuNanos();
                    java.util.Map<String, Long> threadsBefore = threadTicks();
                    long pgCpu = postgresCpuNanos(dataDir);
                    for (int i = 0; i < creates; i++) {
                        long t0 = System.nanoTime();
                        paths[p].run("t" + round + "-" + p + "-" + i);
                        micros[i] = (System.nanoTime() - t0) / 1000;
                    }
                    double[] after = serverCreates(server);
                    double jvmMs = (processCpuNanos() - jvmCpu) / 1e6 / creates;
                    double pgMs = (postgresCpuNanos(dataDir) - pgCpu) / 1e6 / creates;
                    java.util.Map<String, Long> threadsAfter = threadTicks();
                    Arrays.sort(micros);
                    double served = after[0] - before[0];
                    System.out.printf(
                            "  %-26s p50 %6.2f ms  p90 %6.2f ms  mean %6.2f ms  server mean %s  CPU per create: JVM %.2f ms, PostgreSQL %.2f ms%n",
                            labels[p],
                            micros[creates / 2] / 1000.0,
                            micros[creates * 9 / 10] / 1000.0,
                            Arrays.stream(micros).average().orElse(0) / 1000.0,
                            served > 0 ? String.format("%6.2f ms", (after[1] - before[1]) * 1000 / served) : "-",
                            jvmMs,
                            pgMs);
                    StringBuilder perThread = new StringBuilder("      JVM threads, ms per create:");
                    threadsAfter.entrySet().stream()
                            .map(e -> java.util.Map.entry(
                                    e.getKey(), e.getValue() - threadsBefore.getOrDefault(e.getKey(), 0L)))
                            .filter(e -> e.getValue() > 0)
                            .sorted(java.util.Map.Entry.<String, Long>comparingByValue()
                                    .reversed())
                            .forEach(e -> perThread.append(
                                    String.format(" %s %.2f", e.getKey(), e.getValue() * 10.0 / creates)));
                    System.out.println(perThread);
                }
            }
        } finally {
            raw.close();
            pg.close();
            server.close();
            store.close();
            clientVertx.close().await(10, TimeUnit.SECONDS);
            serverVertx.close().await(10, TimeUnit.SECONDS);
            try (var files = Files.walk(dataDir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        }
        System.exit(0);
    }

    private static void vertxPost(io.vertx.core.http.HttpClientAgent client, String name) throws Exception {
        int code = client.request(io.vertx.core.http.HttpMethod.POST, "/api/v1/namespaces/default/pods")
                .compose(req -> req.putHeader("Content-Type", "application/json")
                        .send(String.format(POD, name))
                        .compose(resp -> resp.body().map(b -> resp.statusCode())))
                .await(30, TimeUnit.SECONDS);
        if (code != 201) {
            throw new IllegalStateException("HTTP " + code);
        }
    }

    private static void post(java.net.http.HttpClient client, URI uri, String name) throws Exception {
        var r = client.send(
                java.net.http.HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(String.format(POD, name)))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("HTTP " + r.statusCode());
        }
    }

    /** A minimal blocking HTTP/1.1 client on one kept-alive socket: the least a client can add. */
    static final class RawHttp implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final String host;
        private final String path;
        private final byte[] buffer = new byte[64 * 1024];

        RawHttp(String host, int port, String path) throws java.io.IOException {
            this.socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            this.out = socket.getOutputStream();
            this.in = socket.getInputStream();
            this.host = host + ":" + port;
            this.path = path;
        }

        int post(String body) throws java.io.IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + host
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.US_ASCII);
            byte[] all = Arrays.copyOf(h, h.length + bytes.length);
            System.arraycopy(bytes, 0, all, h.length, bytes.length);
            out.write(all);
            out.flush();
            // read the head, then Content-Length bytes of body
            int filled = 0;
            int headEnd = -1;
            while (headEnd < 0) {
                int n = in.read(buffer, filled, buffer.length - filled);
                if (n < 0) {
                    throw new java.io.EOFException();
                }
                filled += n;
                headEnd = indexOf(buffer, filled);
            }
            String headText = new String(buffer, 0, headEnd, StandardCharsets.US_ASCII);
            int code = Integer.parseInt(headText.substring(9, 12));
            int length = 0;
            for (String line : headText.split("\r\n")) {
                if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            int have = filled - (headEnd + 4);
            while (have < length) {
                int n = in.read(buffer, 0, buffer.length);
                if (n < 0) {
                    throw new java.io.EOFException();
                }
                have += n;
            }
            return code;
        }

        private static int indexOf(byte[] b, int len) {
            for (int i = 0; i + 3 < len; i++) {
                if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public void close() throws java.io.IOException {
            socket.close();
        }
    }

    /** The server's own count and total seconds of 201 pod creates (request gate to response end). */
    private static double[] serverCreates(ApiServer server) {
        double count = 0;
        double sum = 0;
        for (String line : server.metrics().scrape().split("\n")) {
            if (line.contains("verb=\"create\"") && line.contains("resource=\"pods\"")) {
                double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                if (line.startsWith("apiserver_request_duration_seconds_count")) {
                    count = v;
                } else if (line.startsWith("apiserver_request_duration_seconds_sum")) {
                    sum = v;
                }
            }
        }
        return new double[] {count, sum};
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** utime + stime of the postmaster's children (backends, WAL writer, ...), from /proc. */
    static long postgresCpuNanos(Path dataDir) {
        try {
            String postmaster =
                    Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim();
            long ticks = 0;
            try (var procs = Files.list(Path.of("/proc"))) {
                for (Path proc : (Iterable<Path>) procs::iterator) {
                    if (!proc.getFileName().toString().chars().allMatch(Character::isDigit)) {
                        continue;
                    }
                    try {
                        String stat = Files.readString(proc.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        // f[1] = ppid, f[11] = utime, f[12] = stime (fields 4, 14, 15 of proc(5))
                        if (f[1].equals(postmaster)
                                || proc.getFileName().toString().equals(postmaster)) {
                            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                        }
                    } catch (java.io.IOException | RuntimeException e) {
                        // the process ended meanwhile
                    }
                }
            }
            return ticks * 10_000_000L; // USER_HZ = 100
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** CPU ticks of this JVM's threads, summed by name with digits removed (e.g. "C2 CompilerThread"). */
    static java.util.Map<String, Long> threadTicks() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[0-9]+", "#");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (java.io.IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            // no /proc
        }
        return out;
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static int intArg(String[] args, String name, int dflt) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return dflt;
    }
}
