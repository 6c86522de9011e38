package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The fault suite (docs/faults.md): one stack from the packaged jars, faults injected with real
 * signals, each scenario measured and asserted (acknowledged writes lost 0, duplicate pod runs 0,
 * exact Job counts), and a summary table printed at the end. Runs only with {@code -Pfaults}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StackFaultIT {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> ROWS = new CopyOnWriteArrayList<>();
    private static LaunchedStack stack;

    @BeforeAll
    static void up() throws Exception {
        stack = LaunchedStack.up("kplane-faults", 2, List.of());
    }

    @AfterAll
    static void down() throws Exception {
        StringBuilder table = new StringBuilder("\n=== kplane fault suite ===\n")
                .append(String.format(
                        "%-44s | %-9s | %-4s | %-9s | %-22s | %s%n",
                        "scenario", "acked", "lost", "dup runs", "job counts", "recovery"));
        ROWS.forEach(r -> table.append(r).append('\n'));
        System.out.println(table);
        Files.writeString(Path.of("target", "faults-summary.txt"), table.toString());
        if (stack != null) {
            stack.launcher().destroy();
            stack.launcher().waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static void row(String scenario, long acked, long lost, String dupRuns, String jobCounts, String recovery) {
        ROWS.add(String.format(
                "%-44s | %-9s | %-4s | %-9s | %-22s | %s",
                scenario,
                acked < 0 ? "-" : String.valueOf(acked),
                lost < 0 ? "-" : String.valueOf(lost),
                dupRuns,
                jobCounts,
                recovery));
        System.out.println(ROWS.get(ROWS.size() - 1));
    }

    // ------------------------------------------------------------------ 1, 2: kill -9 each component

    /**
     * An Indexed Job of 2 x (components) completions runs while each component in turn (PostgreSQL,
     * the API server, every controller, both kubelets) is killed with SIGKILL mid-Job and restarted by
     * the launcher; meanwhile a writer creates ConfigMaps and records every acknowledged one.
     */
    @Test
    @Order(1)
    void killDashNineOfEachComponentMidJob() throws Exception {
        List<String> components = new ArrayList<>();
        StateFile.read(stack.stateDir()).components().forEach(e -> components.add(e.name()));
        int completions = 60;
        Path runs = stack.stateDir().resolve("fault-job.runs");
        String job =
                """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"faults"},
                 "spec":{"completions":%d,"parallelism":2,"completionMode":"Indexed","backoffLimit":100,
                  "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"w","image":"busybox",
                   "command":["sh","-c","echo $HOSTNAME >> %s; sleep 4"]}]}}}}
                """
                        .formatted(completions, runs);
        Ledger ledger = new Ledger("default", "ledger-kill").start();
        assertThat(post("/apis/batch/v1/namespaces/default/jobs", job).statusCode())
                .isEqualTo(201);
        Map<String, Long> recovery = new LinkedHashMap<>();
        int midJob = 0;
        for (String component : components) {
            JsonNode before = get("/apis/batch/v1/namespaces/default/jobs/faults");
            if (!finished(before)) {
                midJob++;
            }
            long start = System.nanoTime();
            killDashNine(component);
            recovery.put(component, (System.nanoTime() - start) / 1_000_000);
        }
        JsonNode done = await("job finished")
                .atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> get("/apis/batch/v1/namespaces/default/jobs/faults"), StackFaultIT::finished);
        ledger.stop();
        long lost = ledger.lost();

        List<String> lines = Files.exists(runs) ? Files.readAllLines(runs) : List.of();
        long duplicates = lines.size() - new HashSet<>(lines).size();
        int succeeded = done.at("/status/succeeded").asInt();
        int failed = done.at("/status/failed").asInt();
        long succeededPods = 0;
        for (JsonNode p : get("/api/v1/namespaces/default/pods?labelSelector=batch.kubernetes.io/job-name=faults")
                .path("items")) {
            if ("Succeeded".equals(p.at("/status/phase").asText())) {
                succeededPods++;
            }
        }
        String completed = done.at("/status/completedIndexes").asText();
        recovery.forEach(
                (c, ms) -> row("kill -9 " + c + " mid-Job", -1, -1, "-", "-", "healthy again after " + ms + " ms"));
        row(
                "  all " + components.size() + " kills (" + midJob + " mid-Job), whole Job",
                ledger.acked(),
                lost,
                String.valueOf(duplicates),
                "succeeded " + succeeded + "/" + completions + " failed " + failed,
                "longest write outage " + ledger.longestOutageMs() + " ms");
        assertThat(midJob).as("kills while the Job ran").isEqualTo(components.size());
        assertThat(lost).as("acknowledged writes lost").isZero();
        assertThat(duplicates).as("pods whose container ran twice: %s", lines).isZero();
        assertThat(succeeded).isEqualTo(completions);
        assertThat(succeededPods).as("no completion lost or counted twice").isEqualTo(completions);
        assertThat(completed).isEqualTo("0-" + (completions - 1));
    }

    private static boolean finished(JsonNode job) {
        return "True".equals(condition(job, "Complete")) || "True".equals(condition(job, "Failed"));
    }

    // ------------------------------------------------------------------ 3: watch catch-up across a restart

    @Test
    @Order(3)
    void apiServerRestartedDuringATenThousandEventWatchCatchUp() throws Exception {
        assertThat(post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"catchup\"}}")
                        .statusCode())
                .isEqualTo(201);
        long from = get("/api/v1/namespaces/catchup/configmaps")
                .at("/metadata/resourceVersion")
                .asLong();
        int total = 10_000;
        Set<String> acked = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            writers.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                    String name = "cm-" + i;
                    while (true) {
                        int code = postQuietly(
                                "/api/v1/namespaces/catchup/configmaps", "{\"metadata\":{\"name\":\"" + name + "\"}}");
                        if (code == 201 || code == 409) {
                            acked.add(name);
                            break;
                        }
                    }
                }
            }));
        }
        for (Future<?> w : writers) {
            w.get(10, TimeUnit.MINUTES);
        }
        pool.shutdown();

        List<Long> revisions = new ArrayList<>();
        List<String> names = new ArrayList<>();
        long last = from;
        boolean killed = false;
        long killedAt = 0;
        long resumedMs = -1;
        int reconnects = 0;
        while (names.size() < total && reconnects < 20) {
            try (BufferedReader in =
                    watch("/api/v1/namespaces/catchup/configmaps?watch=true&resourceVersion=" + last)) {
                String line;
                while (names.size() < total && (line = in.readLine()) != null) {
                    JsonNode event = Json.tree(line);
                    if (!"ADDED".equals(event.path("type").asText())) {
                        continue;
                    }
                    if (killed && resumedMs < 0) {
                        resumedMs = (System.nanoTime() - killedAt) / 1_000_000;
                    }
                    long rv = event.at("/object/metadata/resourceVersion").asLong();
                    revisions.add(rv);
                    names.add(event.at("/object/metadata/name").asText());
                    last = rv;
                    if (!killed && names.size() == 1_000) {
                        killed = true;
                        killedAt = System.nanoTime();
                        killDashNine("apiserver");
                    }
                }
            } catch (IOException e) {
                // the stream broke with the server: resume from the last revision seen, as informers do
            }
            reconnects++;
            await("apiserver back")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> statusQuietly(stack.server() + "/readyz") == 200);
        }
        long duplicates = names.size() - new HashSet<>(names).size();
        Set<String> missing = new HashSet<>(acked);
        names.forEach(missing::remove);
        boolean ordered = true;
        for (int i = 1; i < revisions.size(); i++) {
            ordered &= revisions.get(i) > revisions.get(i - 1);
        }
        row(
                "apiserver kill -9 during 10,000-event catch-up",
                acked.size(),
                missing.size(),
                "-",
                "events " + names.size() + " dup " + duplicates,
                "stream resumed " + resumedMs + " ms after kill");
        assertThat(killed).isTrue();
        assertThat(missing).as("acknowledged creates missing from the watch").isEmpty();
        assertThat(duplicates).isZero();
        assertThat(ordered).as("revisions strictly increasing").isTrue();
        assertThat(names).hasSize(total);
    }

    // ------------------------------------------------------------------ 4: two API servers, one database

    @Test
    @Order(4)
    void twoApiServersOnOneDatabaseWatchStreamsEqualTheLog() throws Exception {
        StateFile state = StateFile.read(stack.stateDir());
        int dbPort = state.components().stream()
                .filter(e -> e.name().equals("postgres"))
                .findFirst()
                .orElseThrow()
                .healthPort();
        int port2 = freePort();
        Process second = new ProcessBuilder(
                        LaunchedStack.ROOT
                                .resolve("deploy/bin/kplane-component")
                                .toString(),
                        "apiserver",
                        "--port",
                        String.valueOf(port2),
                        "--db-url",
                        "postgresql://postgres@127.0.0.1:" + dbPort + "/postgres")
                .redirectErrorStream(true)
                .redirectOutput(stack.stateDir().resolve("apiserver-2.out").toFile())
                .start();
        String server2 = "http://127.0.0.1:" + port2;
        try {
            await("second apiserver")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> statusQuietly(server2 + "/readyz") == 200);
            assertThat(post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"twin\"}}")
                            .statusCode())
                    .isEqualTo(201);
            long from = get("/api/v1/namespaces/twin/configmaps")
                    .at("/metadata/resourceVersion")
                    .asLong();
            Watcher w1 = new Watcher(stack.server(), from).start();
            Watcher w2 = new Watcher(server2, from).start();

            Map<Long, String> acked = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String base = t % 2 == 0 ? stack.server() : server2;
                int thread = t;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        String name = "t" + thread + "-" + (i % 50);
                        HttpResponse<String> r = i < 50
                                ? send(
                                        base,
                                        "POST",
                                        "/api/v1/namespaces/twin/configmaps",
                                        "{\"metadata\":{\"name\":\"" + name + "\"}}",
                                        "application/json")
                                : send(
                                        base,
                                        "PATCH",
                                        "/api/v1/namespaces/twin/configmaps/" + name,
                                        "{\"data\":{\"i\":\"" + i + "\"}}",
                                        "application/merge-patch+json");
                        if (r.statusCode() / 100 == 2) {
                            acked.put(
                                    Json.tree(r.body())
                                            .at("/metadata/resourceVersion")
                                            .asLong(),
                                    name);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
            long newest =
                    acked.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
            await().atMost(Duration.ofMinutes(1)).until(() -> w1.last() >= newest && w2.last() >= newest);
            w1.stop();
            w2.stop();
            List<Long> log = acked.keySet().stream().sorted().toList();
            long gaps1 = log.stream().filter(r -> !w1.revisions.contains(r)).count();
            long gaps2 = log.stream().filter(r -> !w2.revisions.contains(r)).count();
            long dups1 = w1.revisions.size() - new HashSet<>(w1.revisions).size();
            long dups2 = w2.revisions.size() - new HashSet<>(w2.revisions).size();
            row(
                    "2 apiservers, 1 database, writers on both",
                    acked.size(),
                    0,
                    "-",
                    "gaps " + gaps1 + "/" + gaps2 + " dups " + dups1 + "/" + dups2,
                    "-");
            assertThat(w1.revisions).as("stream on apiserver 1 equals the log").containsExactlyElementsOf(log);
            assertThat(w2.revisions).as("stream on apiserver 2 equals the log").containsExactlyElementsOf(log);
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

    // ------------------------------------------------------------------ 5: PostgreSQL's disk full

    /**
     * PostgreSQL's data disk fills up while a Job runs and the ledger writes (a real full filesystem,
     * {@link SmallDisk}): writes get 503 ServiceUnavailable saying the disk is full (never a 500 or a
     * hang), reads go on, {@code /readyz} says why; once space is freed everything recovers with no
     * acknowledged write lost, no pod run twice and exact Job counts.
     */
    @Test
    @Order(5)
    void fullDataDiskRefusesWritesWithClear503sAndRecovers() throws Exception {
        int dbPort = StateFile.read(stack.stateDir()).components().stream()
                .filter(e -> e.name().equals("postgres"))
                .findFirst()
                .orElseThrow()
                .healthPort();
        try (SmallDisk disk = new SmallDisk(dbPort)) {
            Assumptions.assumeTrue(disk.mount(64), "mounting a tmpfs needs root (the fault suite's CI runs as root)");
            disk.moveTables();
            int completions = 6;
            Path runs = stack.stateDir().resolve("full-disk-job.runs");
            String job =
                    """
                    {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"full-disk"},
                     "spec":{"completions":%d,"parallelism":2,"completionMode":"Indexed","backoffLimit":100,
                      "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"w","image":"busybox",
                       "command":["sh","-c","echo $HOSTNAME >> %s; sleep 3"]}]}}}}
                    """
                            .formatted(completions, runs);
            Ledger ledger = new Ledger("default", "ledger-full").start();
            assertThat(post("/apis/batch/v1/namespaces/default/jobs", job).statusCode())
                    .isEqualTo(201);
            await("job running")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> get("/apis/batch/v1/namespaces/default/jobs/full-disk")
                                    .at("/status/active")
                                    .asInt()
                            > 0);

            disk.fill();
            long filled = System.nanoTime();
            // a write that needs a new page now fails; big ones need pages at once
            String big = "x".repeat(200_000);
            AtomicInteger n = new AtomicInteger();
            HttpResponse<String> refused = await("a write refused")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(50))
                    .until(
                            () -> post(
                                    "/api/v1/namespaces/default/configmaps",
                                    "{\"metadata\":{\"name\":\"big-" + n.incrementAndGet() + "\"},\"data\":{\"a\":\""
                                            + big + "\"}}"),
                            r -> r.statusCode() != 201);
            JsonNode status = Json.tree(refused.body());
            String readyz = await("readyz says why")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(
                            () -> {
                                post(
                                        "/api/v1/namespaces/default/configmaps",
                                        "{\"metadata\":{\"name\":\"big-" + n.incrementAndGet()
                                                + "\"},\"data\":{\"a\":\"" + big + "\"}}");
                                return send(stack.server(), "GET", "/readyz", "", "text/plain");
                            },
                            r -> r.statusCode() == 503 && r.body().contains("disk full"))
                    .body();
            int reads = send(stack.server(), "GET", "/api/v1/namespaces/default/configmaps?limit=50", "", "text/plain")
                    .statusCode();

            disk.free();
            long freed = System.nanoTime();
            await("writes succeed again")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> post(
                                            "/api/v1/namespaces/default/configmaps",
                                            "{\"metadata\":{\"name\":\"after-full-" + n.incrementAndGet() + "\"}}")
                                    .statusCode()
                            == 201);
            long recoveryMs = (System.nanoTime() - freed) / 1_000_000;
            JsonNode done = await("job finished")
                    .atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> get("/apis/batch/v1/namespaces/default/jobs/full-disk"), StackFaultIT::finished);
            ledger.stop();
            long lost = ledger.lost();
            List<String> lines = Files.exists(runs) ? Files.readAllLines(runs) : List.of();
            long duplicates = lines.size() - new HashSet<>(lines).size();
            int succeeded = done.at("/status/succeeded").asInt();
            int failed = done.at("/status/failed").asInt();
            row(
                    "PostgreSQL data disk full mid-Job",
                    ledger.acked(),
                    lost,
                    String.valueOf(duplicates),
                    "succeeded " + succeeded + "/" + completions + " failed " + failed,
                    "writes again " + recoveryMs + " ms after space freed (full for " + (freed - filled) / 1_000_000
                            + " ms)");
            row("  ledger answers, whole scenario: " + ledger.codes(), -1, -1, "-", "-", "-");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(status.path("kind").asText()).isEqualTo("Status");
            assertThat(status.path("reason").asText()).isEqualTo("ServiceUnavailable");
            assertThat(status.path("message").asText()).contains("disk full").contains("53100");
            assertThat(readyz).contains("[-]storage-writer failed").contains("disk full");
            assertThat(reads).as("reads while the disk is full").isEqualTo(200);
            assertThat(ledger.codes().keySet())
                    .as("every write answered 201 or 503, never a 500 or a hang (-1)")
                    .isSubsetOf(201, 503);
            assertThat(lost).as("acknowledged writes lost").isZero();
            assertThat(duplicates)
                    .as("pods whose container ran twice: %s", lines)
                    .isZero();
            assertThat(succeeded).isEqualTo(completions);
            assertThat(failed).isZero();
            assertThat(done.at("/status/completedIndexes").asText()).isEqualTo("0-" + (completions - 1));
        }
    }

    /** A watch of ConfigMaps in namespace twin, recording each event's revision in order. */
    private static final class Watcher {
        final String server;
        final List<Long> revisions = new CopyOnWriteArrayList<>();
        final AtomicLong last;
        final AtomicBoolean stopped = new AtomicBoolean();
        private Thread thread;

        Watcher(String server, long from) {
            this.server = server;
            this.last = new AtomicLong(from);
        }

        long last() {
            return last.get();
        }

        Watcher start() {
            thread = new Thread(
                    () -> {
                        while (!stopped.get()) {
                            try (BufferedReader in = watchAt(
                                    server,
                                    "/api/v1/namespaces/twin/configmaps?watch=true&resourceVersion=" + last.get())) {
                                String line;
                                while (!stopped.get() && (line = in.readLine()) != null) {
                                    JsonNode event = Json.tree(line);
                                    if ("BOOKMARK".equals(event.path("type").asText())
                                            || "ERROR".equals(event.path("type").asText())) {
                                        continue;
                                    }
                                    long rv = event.at("/object/metadata/resourceVersion")
                                            .asLong();
                                    revisions.add(rv);
                                    last.set(rv);
                                }
                            } catch (IOException e) {
                                // reconnect from the last revision (the server stays up here; a short pause
                                // keeps a refused connection from spinning)
                                try {
                                    Thread.sleep(100);
                                } catch (InterruptedException ie) {
                                    return;
                                }
                            }
                        }
                    },
                    "fault-watcher");
            thread.setDaemon(true);
            thread.start();
            return this;
        }

        void stop() {
            stopped.set(true);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Creates ConfigMaps one after another and remembers each acknowledged (201) one. */
    private static final class Ledger {
        final String namespace;
        final String prefix;
        final Set<String> acked = ConcurrentHashMap.newKeySet();
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicLong longestOutage = new AtomicLong();
        /** How many writes got each answer (-1: no answer). */
        final Map<Integer, AtomicLong> codes = new ConcurrentHashMap<>();

        private Thread thread;

        Ledger(String namespace, String prefix) {
            this.namespace = namespace;
            this.prefix = prefix;
        }

        Ledger start() {
            thread = new Thread(
                    () -> {
                        long failingSince = 0;
                        for (int i = 0; !stopped.get(); i++) {
                            String name = prefix + "-" + i;
                            int code = postQuietly(
                                    "/api/v1/namespaces/" + namespace + "/configmaps",
                                    "{\"metadata\":{\"name\":\"" + name + "\"}}");
                            codes.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
                            if (code == 201) {
                                acked.add(name);
                                if (failingSince != 0) {
                                    longestOutage.accumulateAndGet(
                                            (System.nanoTime() - failingSince) / 1_000_000, Math::max);
                                    failingSince = 0;
                                }
                            } else if (failingSince == 0) {
                                failingSince = System.nanoTime();
                            }
                            try {
                                Thread.sleep(20); // a steady trickle, not a load test
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "fault-ledger");
            thread.setDaemon(true);
            thread.start();
            return this;
        }

        void stop() throws InterruptedException {
            stopped.set(true);
            thread.join(30_000);
        }

        long acked() {
            return acked.size();
        }

        Map<Integer, AtomicLong> codes() {
            return Map.copyOf(codes);
        }

        long longestOutageMs() {
            return longestOutage.get();
        }

        /** Acknowledged names the server no longer has. */
        long lost() throws Exception {
            Set<String> present = new HashSet<>();
            for (JsonNode item :
                    get("/api/v1/namespaces/" + namespace + "/configmaps").path("items")) {
                present.add(item.at("/metadata/name").asText());
            }
            return acked.stream().filter(n -> !present.contains(n)).count();
        }
    }

    private static void killDashNine(String component) throws IOException {
        StateFile s = StateFile.read(stack.stateDir());
        long pid = s.components().stream()
                .filter(e -> e.name().equals(component))
                .findFirst()
                .orElseThrow()
                .pid();
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await(component + " restarted")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    StateFile now = StateFile.read(stack.stateDir());
                    StateFile.Entry e = now.components().stream()
                            .filter(c -> c.name().equals(component))
                            .findFirst()
                            .orElseThrow();
                    return e.pid() != pid
                            && HealthProbe.healthy(new ComponentSpec(
                                    e.name(),
                                    e.name(),
                                    List.of(),
                                    Map.of(),
                                    e.healthPort(),
                                    e.healthPath(),
                                    List.of()));
                });
    }

    private static String condition(JsonNode job, String type) {
        for (JsonNode c : job.at("/status/conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText();
            }
        }
        return "";
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(stack.server() + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.tree(r.body());
    }

    private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(stack.server(), "POST", path, body, "application/json");
    }

    private static HttpResponse<String> send(String base, String method, String path, String body, String contentType) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + path))
                            .timeout(Duration.ofSeconds(30))
                            .header("Content-Type", contentType)
                            .method(method, HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status code, or -1 when the server cannot be reached (it is being killed). */
    private static int postQuietly(String path, String body) {
        try {
            return send(stack.server(), "POST", path, body, "application/json").statusCode();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static int statusQuietly(String url) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static BufferedReader watch(String path) throws IOException {
        return watchAt(stack.server(), path);
    }

    private static BufferedReader watchAt(String base, String path) throws IOException {
        try {
            HttpResponse<java.io.InputStream> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() != 200) {
                r.body().close();
                throw new IOException("watch answered " + r.statusCode());
            }
            return new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
