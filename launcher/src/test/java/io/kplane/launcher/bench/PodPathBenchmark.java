package io.kplane.launcher.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The pod-start and trivial-Job rows of {@code bench/run-all.sh}, against a running stack (process
 * runtime), each beside the same-run reference: starting the same command directly with
 * {@code sh -c}.
 *
 * <ul>
 *   <li>pod created → container started: the container is {@code sh -c 'date +%s%N'}, so it prints
 *       the wall-clock nanosecond it ran; latency = that − the instant just before the create
 *       request was sent (same machine, same clock). One pod at a time, so queueing is not
 *       measured. Reference: the same command started with {@code ProcessBuilder}, measured the same
 *       way.</li>
 *   <li>trivial Job ({@code echo hi}) created → {@code Complete}: the Job is polled every 10 ms
 *       (the figure is accurate to that).</li>
 * </ul>
 * The first pod, Job and reference start are run before the measured ones and printed on their own
 * ("first after up"), out of the percentiles: they pay one-off class loading and JIT (docs/performance.md,
 * "Pod start"). Each measured pod's and Job's steps, as a watching client saw them ({@link PodTimeline}),
 * are printed too, so a slow one shows which step it spent its time in. After each series its pods and
 * Jobs are deleted and the next series starts once they and their dependents are gone
 * ({@link #deleteAndAwaitGone}): a deletion's cascade beside a measured pod made the first measured pod
 * the slowest of the run.
 *
 * <p>Prints {@code ROW|figure|value|reference|target|PASS or MISS} lines for the script's table.
 *
 * <p>Run: {@code java -cp <launcher test classpath> io.kplane.launcher.bench.PodPathBenchmark
 * --server http://127.0.0.1:6443 [--pods 40] [--jobs 15]}
 */
public final class PodPathBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "default";

    /** Cleaning up waits at most this long for the deleted objects to be gone. */
    private static final int CLEAN_UP_WAIT_SECONDS = 30;

    /** The objects created and not deleted yet (their paths), see {@link #deleteAndAwaitGone}. */
    private final List<String> createdObjects = new ArrayList<>();

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String server;

    private PodPathBenchmark(String server) {
        this.server = server;
    }

    public static void main(String[] args) throws Exception {
        String server = "http://127.0.0.1:6443";
        int pods = 40;
        int jobs = 15;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> server = args[++i];
                case "--pods" -> pods = Integer.parseInt(args[++i]);
                case "--jobs" -> jobs = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("usage: --server URL [--pods N] [--jobs N]");
            }
        }
        PodPathBenchmark b = new PodPathBenchmark(server);
        try {
            b.run(pods, jobs);
        } finally {
            b.deleteAndAwaitGone("the run");
        }
    }

    private void run(int pods, int jobs) throws Exception {
        // The first pod and Job after `up` are measured on their own and left out of the percentiles:
        // they pay one-off class loading and JIT in the API server, scheduler, kubelet and Job
        // controller (docs/performance.md, "Pod start"); the rows are what every later pod sees.
        double firstReference = referenceStarts(1).get(0);
        warmOwnClient();
        double firstPod = podStarts(1).get(0);
        double firstJob = trivialJobs(1).get(0);
        deleteAndAwaitGone("the first pod and Job");
        List<Double> reference = referenceStarts(pods);
        List<Double> podStarts = podStarts(pods);
        deleteAndAwaitGone("the measured pods");
        List<Double> jobTimes = trivialJobs(jobs);
        System.out.printf(
                "first after up (not in the percentiles): pod created -> container started %.1f ms, trivial Job -> Complete %.1f ms, sh -c start %.1f ms%n",
                firstPod, firstJob, firstReference);
        double refP50 = percentile(reference, 50);
        double refP99 = percentile(reference, 99);
        System.out.printf(
                "sh -c start (reference), %d runs: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                reference.size(), refP50, refP99, Collections.max(reference));
        System.out.printf(
                "pod created -> container started, %d pods: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                podStarts.size(), percentile(podStarts, 50), percentile(podStarts, 99), Collections.max(podStarts));
        System.out.printf(
                "trivial Job created -> Complete, %d Jobs: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                jobTimes.size(), percentile(jobTimes, 50), percentile(jobTimes, 99), Collections.max(jobTimes));
        double podP99 = percentile(podStarts, 99);
        double jobP50 = percentile(jobTimes, 50);
        System.out.printf(
                "ROW|pod created -> container started (process runtime), p99|%.0f ms (p50 %.0f)|sh -c start p99 %.1f ms|< 200 ms|%s%n",
                podP99, percentile(podStarts, 50), refP99, podP99 < 200 ? "PASS" : "MISS");
        System.out.printf(
                "ROW|trivial Job (echo hi) created -> Complete, p50|%.0f ms|sh -c start p50 %.1f ms|< 300 ms|%s%n",
                jobP50, refP50, jobP50 < 300 ? "PASS" : "MISS");
        System.out.printf(
                "ROW|first pod after up: created -> container started (not in the p99 above)|%.0f ms|first sh -c start %.1f ms|-|info%n",
                firstPod, firstReference);
        System.out.printf(
                "ROW|first trivial Job after up: created -> Complete (not in the p50 above)|%.0f ms|first sh -c start %.1f ms|-|info%n",
                firstJob, firstReference);
    }

    /**
     * The benchmark's own first requests, before the first pod: its JVM's HTTP client, JSON and TLS-less
     * connection set-up are cold too (no archive, no JIT), and the first pod's figure is the stack's, not
     * this process's. Traced on fresh `up`s, the first create began on the server 0.3-0.45 s after the
     * benchmark sent it (load ~20), the next ones 3-20 ms. A user's {@code kubectl apply} also asks the
     * server first (discovery) and is a warm native binary; here: one GET of each list the runs read,
     * each on the connection the creates will use. Nothing the stack's pod path runs is warmed.
     */
    private void warmOwnClient() throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            benchObjectsLeft();
        }
    }

    /**
     * Deletes the pods and Jobs created so far and waits until they are gone, with their Jobs' pods and
     * the lens sync records of all of them, before the next series starts. Deleting a series and going on
     * at once put its cascade (the garbage collector deleting a Job's pod and each pod's lens records, the
     * kubelet stopping and removing pods, every component's watch events of it) beside the next measured
     * pod: in the 2026-11-26 quiet run the first measured pod was created while the unmeasured first Job
     * was being deleted, the API requests of that moment took 25-95 ms instead of 5-15, and its binding
     * was answered 195 ms after its create (docs/performance.md, "Pod start: the first measured pod was
     * waiting on the benchmark's own clean-up"). One pod at a time means one pod's work at a time.
     */
    private void deleteAndAwaitGone(String what) throws IOException, InterruptedException {
        long start = System.nanoTime();
        int deleted = createdObjects.size();
        for (String path : createdObjects) {
            send("DELETE", path, null, -1);
        }
        createdObjects.clear();
        long deadline = start + Duration.ofSeconds(CLEAN_UP_WAIT_SECONDS).toNanos();
        int left;
        while ((left = benchObjectsLeft()) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.printf(
                "clean-up after %s: %d objects deleted, %s after %.1f s%n",
                what,
                deleted,
                left == 0 ? "they and their dependents gone" : left + " still there (went on anyway)",
                (System.nanoTime() - start) / 1e9);
    }

    /** Pods, Jobs and lens sync records of this benchmark (named bench-...) still in the namespace. */
    private int benchObjectsLeft() throws IOException, InterruptedException {
        int left = 0;
        for (String list : List.of(
                "/api/v1/namespaces/" + NS + "/pods",
                "/apis/batch/v1/namespaces/" + NS + "/jobs",
                "/apis/lens.kplane.io/v1/namespaces/" + NS + "/syncrecords")) {
            for (JsonNode item : JSON.readTree(send("GET", list, null, -1)).path("items")) {
                if (item.path("metadata").path("name").asText().startsWith("bench-")) {
                    left++;
                }
            }
        }
        return left;
    }

    /** Starting {@code sh -c 'date +%s%N'} directly: the floor of any process-runtime container start. */
    private List<Double> referenceStarts(int n) throws Exception {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Instant before = Instant.now();
            Process p = new ProcessBuilder("sh", "-c", "date +%s%N")
                    .redirectErrorStream(true)
                    .start();
            String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor();
            out.add(millisSince(before, printed));
        }
        return out;
    }

    private List<Double> podStarts(int n) throws Exception {
        String run = Long.toString(System.currentTimeMillis() % 100000);
        List<Double> out = new ArrayList<>();
        PodTimeline timeline = new PodTimeline(http, server, NS, "kplane-bench=pod", null);
        System.out.println(
                "pod start, per pod (ms after the create was sent; watch times include the watch's delivery):");
        System.out.println("  pod  create-answered  bound-seen  container-printed  first-status-seen  Succeeded-seen");
        for (int i = 0; i < n; i++) {
            String name = "bench-pod-" + run + "-" + i;
            String body =
                    """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"kplane-bench":"pod"}},
                     "spec":{"restartPolicy":"Never","terminationGracePeriodSeconds":0,
                      "containers":[{"name":"c","image":"busybox","command":["sh","-c","date +%%s%%N"]}]}}"""
                            .formatted(name);
            Instant before = Instant.now();
            send("POST", "/api/v1/namespaces/" + NS + "/pods", body, 201);
            createdObjects.add("/api/v1/namespaces/" + NS + "/pods/" + name + "?gracePeriodSeconds=0");
            long answered = PodTimeline.epochNanos(Instant.now());
            awaitPhaseFinished(name);
            String log = send("GET", "/api/v1/namespaces/" + NS + "/pods/" + name + "/log", null, 200)
                    .trim();
            double total = millisSince(before, log);
            out.add(total);
            long t0 = PodTimeline.epochNanos(before);
            PodTimeline.Steps s = timeline.of(name);
            System.out.printf(
                    "  %3d  %15s  %10s  %17.1f  %17s  %14s%n",
                    i, ms(answered, t0), ms(s.bound, t0), total, ms(s.firstContainerStatus, t0), ms(s.succeeded, t0));
        }
        timeline.close();
        return out;
    }

    private List<Double> trivialJobs(int n) throws Exception {
        String run = Long.toString(System.currentTimeMillis() % 100000);
        List<Double> out = new ArrayList<>();
        PodTimeline timeline =
                new PodTimeline(http, server, NS, "batch.kubernetes.io/job-name", "batch.kubernetes.io/job-name");
        System.out.println("trivial Job, per Job (ms after the create was sent; its pod's steps as a watch saw them):");
        System.out.println("  job  pod-seen  bound-seen  first-status-seen  Succeeded-seen  Complete-seen");
        for (int i = 0; i < n; i++) {
            String name = "bench-job-" + run + "-" + i;
            String body =
                    """
                    {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},
                     "spec":{"template":{"spec":{"restartPolicy":"Never","terminationGracePeriodSeconds":0,
                      "containers":[{"name":"c","image":"busybox","command":["sh","-c","echo hi"]}]}}}}"""
                            .formatted(name);
            long t0 = System.nanoTime();
            send("POST", "/apis/batch/v1/namespaces/" + NS + "/jobs", body, 201);
            createdObjects.add("/apis/batch/v1/namespaces/" + NS + "/jobs/" + name + "?propagationPolicy=Background");
            long deadline = t0 + Duration.ofSeconds(60).toNanos();
            while (!complete(name)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("job " + name + " not Complete within 60 s");
                }
                Thread.sleep(10);
            }
            double total = (System.nanoTime() - t0) / 1e6;
            out.add(total);
            long sent = PodTimeline.epochNanos(Instant.now()) - (long) (total * 1e6);
            PodTimeline.Steps s = timeline.of(name);
            System.out.printf(
                    "  %3d  %8s  %10s  %17s  %14s  %13.1f%n",
                    i,
                    ms(s.seen, sent),
                    ms(s.bound, sent),
                    ms(s.firstContainerStatus, sent),
                    ms(s.succeeded, sent),
                    total);
        }
        timeline.close();
        return out;
    }

    private boolean complete(String job) throws Exception {
        JsonNode j = JSON.readTree(send("GET", "/apis/batch/v1/namespaces/" + NS + "/jobs/" + job, null, 200));
        for (JsonNode c : j.path("status").path("conditions")) {
            if ("Complete".equals(c.path("type").asText())
                    && "True".equals(c.path("status").asText())) {
                return true;
            }
            if ("Failed".equals(c.path("type").asText())
                    && "True".equals(c.path("status").asText())) {
                throw new IllegalStateException("job " + job + " failed: " + c);
            }
        }
        return false;
    }

    private void awaitPhaseFinished(String pod) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode p = JSON.readTree(send("GET", "/api/v1/namespaces/" + NS + "/pods/" + pod, null, 200));
            String phase = p.path("status").path("phase").asText();
            if ("Succeeded".equals(phase)) {
                return;
            }
            if ("Failed".equals(phase)) {
                throw new IllegalStateException("pod " + pod + " failed: " + p.path("status"));
            }
            Thread.sleep(20); // the figure is the container's own timestamp: polling does not shape it
        }
        throw new IllegalStateException("pod " + pod + " did not finish within 60 s");
    }

    private String send(String method, String path, String body, int expect) throws IOException, InterruptedException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(server + path)).timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (expect > 0 && r.statusCode() != expect) {
            throw new IllegalStateException(method + " " + path + " -> " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** Milliseconds from {@code before} to the epoch-nanosecond time a process printed. */
    private static double millisSince(Instant before, String printedEpochNanos) {
        long printed = Long.parseLong(
                printedEpochNanos.lines().reduce((a, b) -> b).orElseThrow().trim());
        long beforeNanos = before.getEpochSecond() * 1_000_000_000L + before.getNano();
        return (printed - beforeNanos) / 1e6;
    }

    /** Milliseconds from {@code fromNanos} to {@code atNanos}, "-" when the step was not seen. */
    private static String ms(long atNanos, long fromNanos) {
        return atNanos == 0 ? "-" : String.format("%.1f", (atNanos - fromNanos) / 1e6);
    }

    static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
