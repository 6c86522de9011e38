package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Event;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The cluster clock end to end: kubectl-lite's clock commands against the whole stack with upstream's
 * default timings ({@link ClockCluster}: every controller, two kubelet-sim processes running real
 * containers). Minutes, hours and days of cluster time pass in seconds because the clock is stepped
 * or sped up, never because a timing was shortened. The tests run in order and only ever move the
 * clock forward (CronJobs in March and October 2026, then December, then at rate x60).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClockCommandsTest {
    private static ClockCluster cluster;
    private static CliRunner cli;

    @BeforeAll
    static void start() throws Exception {
        cluster = new ClockCluster("node-a", "node-b");
        cli = new CliRunner(cluster.api.url());
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertThat(r.code())
                .as("kubectl-lite %s\nstdout:\n%s\nstderr:\n%s", String.join(" ", args), r.out(), r.err())
                .isZero();
        return r;
    }

    private static void apply(String yaml) {
        CliRunner.Result r = cli.runWithStdin(yaml, "apply", "-f", "-");
        assertThat(r.code()).as(r.err()).isZero();
    }

    private static void namespace(String ns) {
        apply("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + ns + "\n");
    }

    /** A fresh namespace {@code ns} and the cluster clock frozen at {@code clusterTime}: how most cases begin. */
    private static void frozenAt(String ns, String clusterTime) {
        namespace(ns);
        ok("clock", "freeze");
        ok("clock", "set", clusterTime);
    }

    private static String cronJob(String ns, String name, String schedule, String extraSpec, String command) {
        return """
                apiVersion: batch/v1
                kind: CronJob
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  schedule: "%s"
                  successfulJobsHistoryLimit: 100
                  failedJobsHistoryLimit: 100
                %s  jobTemplate:
                    spec:
                      template:
                        spec:
                          restartPolicy: Never
                          containers:
                          - name: main
                            image: busybox
                            command: %s
                """
                .formatted(name, ns, schedule, extraSpec, command);
    }

    private static List<String> jobNames(String ns) {
        return cluster.client.jobs().inNamespace(ns).list().stream()
                .map(Job::name)
                .sorted()
                .toList();
    }

    private static List<Event> events(String ns, String reason) {
        return cluster.client.events().inNamespace(ns).list().stream()
                .filter(e -> reason.equals(e.reason()))
                .toList();
    }

    private static long minute(String instant) {
        return Instant.parse(instant).getEpochSecond() / 60;
    }

    @Test
    @Order(1)
    void showsTheClockAndRejectsABadRate() {
        CliRunner.Result show = ok("clock");
        assertThat(show.out()).contains("Mode:          Real").contains("Rate:          1");
        CliRunner.Result bad = cli.run("clock", "rate", "0");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("Clock \"cluster\" is invalid").contains("spec.rate: Invalid value: 0");
        CliRunner.Result real = cli.run("get", "clocks");
        assertThat(real.code()).as(real.err()).isZero();
        assertThat(real.out()).contains("cluster");
    }

    /** Berlin 02:30 daily: none on the spring-forward day, twice (once per offset) on the fall-back day. */
    @Test
    @Order(2)
    void daylightSavingTimeInBerlin() {
        String ns = "dst";
        frozenAt(ns, "2026-03-28T12:00:00Z");
        apply(cronJob(ns, "spring", "30 2 * * *", "  timeZone: Europe/Berlin\n", "[\"true\"]"));
        ok("clock", "advance", "48h", "--step", "1h");
        // 29 March 02:30 does not exist in Berlin (02:00 CET -> 03:00 CEST); 30 March 02:30 CEST = 00:30Z
        assertThat(jobNames(ns)).containsExactly("spring-" + minute("2026-03-30T00:30:00Z"));
        ok("suspend", "cronjob/spring", "-n", ns);

        ok("clock", "set", "2026-10-24T12:00:00Z");
        apply(cronJob(ns, "autumn", "30 2 * * *", "  timeZone: Europe/Berlin\n", "[\"true\"]"));
        CliRunner.Result next = ok("cronjob", "next", "autumn", "-n", ns, "-c", "3");
        assertThat(next.out())
                .containsPattern(
                        "2026-10-25 02:30:00 \\+02:00 +2026-10-25T00:30:00Z +autumn-" + minute("2026-10-25T00:30:00Z"))
                .containsPattern(
                        "2026-10-25 02:30:00 \\+01:00 +2026-10-25T01:30:00Z +autumn-" + minute("2026-10-25T01:30:00Z"))
                .containsPattern("2026-10-26 02:30:00 \\+01:00 +2026-10-26T01:30:00Z");
        ok("clock", "advance", "48h", "--step", "1h");
        assertThat(jobNames(ns).stream().filter(n -> n.startsWith("autumn-")).toList())
                .containsExactly(
                        "autumn-" + minute("2026-10-25T00:30:00Z"),
                        "autumn-" + minute("2026-10-25T01:30:00Z"),
                        "autumn-" + minute("2026-10-26T01:30:00Z"));
    }

    /** Frozen clock, every 5 minutes, advanced 3 hours a minute at a time: exactly 36 Jobs, named by minute. */
    @Test
    @Order(3)
    void everyFiveMinutesForThreeHours() {
        String ns = "five";
        frozenAt(ns, "2026-12-01T00:00:00Z");
        apply(cronJob(ns, "five", "*/5 * * * *", "", "[\"true\"]"));
        CliRunner.Result advance = ok("clock", "advance", "3h", "--step", "1m");
        assertThat(advance.out()).contains("step 180/180").contains("SuccessfulCreate");
        long start = minute("2026-12-01T00:00:00Z");
        assertThat(jobNames(ns))
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 36)
                        .mapToObj(k -> "five-" + (start + 5L * k))
                        .toList());
        assertThat(cluster.client
                        .cronJobs()
                        .inNamespace(ns)
                        .get("five")
                        .status()
                        .lastScheduleTime())
                .isEqualTo(Instant.parse("2026-12-01T03:00:00Z"));
        assertThat(ok("clock").out()).contains("Mode:          Frozen").contains("Cluster time:  2026-12-01T03:00:00Z");
    }

    /** One jump over 102 schedule times: one Job (the most recent) and a TooManyMissedTimes warning. */
    @Test
    @Order(4)
    void tooManyMissedSchedules() {
        String ns = "missed";
        frozenAt(ns, "2026-12-02T00:00:00Z");
        apply(cronJob(ns, "every-minute", "* * * * *", "", "[\"true\"]"));
        CliRunner.Result advance = ok("clock", "advance", "102m");
        assertThat(jobNames(ns)).containsExactly("every-minute-" + minute("2026-12-02T01:42:00Z"));
        assertThat(advance.out()).contains("TooManyMissedTimes");
        assertThat(events(ns, "TooManyMissedTimes")).isNotEmpty();
    }

    /** Forbid with a long-running Job across several ticks: one Job, JobAlreadyActive. */
    @Test
    @Order(5)
    void forbidSkipsTicksWhileTheJobRuns() {
        String ns = "forbid";
        frozenAt(ns, "2026-12-03T00:00:00Z");
        apply(cronJob(ns, "long", "* * * * *", "  concurrencyPolicy: Forbid\n", "[\"sleep\", \"30\"]"));
        CliRunner.Result advance = ok("clock", "advance", "4m", "--step", "1m");
        assertThat(jobNames(ns)).containsExactly("long-" + minute("2026-12-03T00:01:00Z"));
        assertThat(events(ns, "JobAlreadyActive")).isNotEmpty();
        assertThat(advance.out()).contains("JobAlreadyActive");
    }

    /** ttlSecondsAfterFinished 3600: the Job stays until the clock has moved an hour past its finish. */
    @Test
    @Order(6)
    void ttlAfterFinishedDeletesRightAfterAnHour() {
        String ns = "ttl";
        frozenAt(ns, "2026-12-04T00:00:00Z");
        apply(
                """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: short
                  namespace: ttl
                spec:
                  ttlSecondsAfterFinished: 3600
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                        command: ["true"]
                """);
        // the frozen clock must move for the pod's status to be batched to the Job controller (1 s)
        ok("clock", "advance", "10s", "--step", "1s");
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            Job j = cluster.client.jobs().inNamespace(ns).get("short");
            return j.status() != null
                    && j.status().succeeded() != null
                    && j.status().succeeded() == 1
                    && j.status().completionTime() != null;
        });
        ok("clock", "advance", "30m");
        assertThat(cluster.client.jobs().inNamespace(ns).find("short")).isPresent();
        ok("clock", "advance", "30m");
        await().atMost(Duration.ofSeconds(2))
                .until(() -> cluster.client.jobs().inNamespace(ns).find("short").isEmpty());
    }

    /**
     * The pod failure back-off exactly: 10 s, 20 s, 40 s of cluster time between a failed pod's
     * {@code finishedAt} and the next pod's {@code creationTimestamp}, with a frozen clock stepped 5 s at a
     * time. No tolerance: on a frozen clock every time stamped during a step is that step's instant (the
     * kubelet's finishedAt, the API server's creationTimestamp), and a step ends only when every
     * controller is idle, so the re-creation due at finishedAt + back-off (a multiple of the step) happens
     * in the step that reaches it, however slow the machine is.
     */
    @Test
    @Order(7)
    void backoffExactlyOnAFrozenClock() {
        String ns = "backoff-exact";
        frozenAt(ns, "2026-12-10T00:00:00Z");
        apply(failingJob(ns));
        long began = System.nanoTime();
        ok("clock", "advance", "90s", "--step", "5s");
        Job job = cluster.client.jobs().inNamespace(ns).get("failing");
        assertThat(job.status().conditions()).anyMatch(c -> "Failed".equals(c.type()) && "True".equals(c.status()));
        List<Pod> pods = podsByCreation(ns);
        assertThat(pods).hasSize(4);
        List<Duration> gaps = IntStream.range(0, 3)
                .mapToObj(i -> Duration.between(
                        finishedAt(pods.get(i)), pods.get(i + 1).metadata().creationTimestamp()))
                .toList();
        System.out.printf(
                "back-off on a frozen clock stepped 5 s: %s (wall %d ms)%n",
                gaps, Duration.ofNanos(System.nanoTime() - began).toMillis());
        assertThat(gaps).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(40));
    }

    /** At x60, cluster seconds until the Job controller has learnt of a pod failure (500 ms wall): see {@link #backoffAtRateSixty}. */
    private static final double OBSERVATION_S = 30;
    /** At x60, cluster seconds from a due back-off to the pod's creation (100 ms wall). */
    private static final double REACTION_S = 6;

    /** Rate x60: pod re-creation back-off of 10 s, 20 s, 40 s in cluster time, in about a wall second. */
    @Test
    @Order(8)
    void backoffAtRateSixty() {
        String ns = "backoff";
        namespace(ns);
        ok("clock", "rate", "60");
        apply(failingJob(ns));
        long began = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Job j = cluster.client.jobs().inNamespace(ns).get("failing");
            return j.status() != null
                    && j.status().conditions() != null
                    && j.status().conditions().stream()
                            .anyMatch(c -> "Failed".equals(c.type()) && "True".equals(c.status()));
        });
        Duration wall = Duration.ofNanos(System.nanoTime() - began);
        List<Pod> pods = podsByCreation(ns);
        assertThat(pods).hasSize(4);
        List<Double> gaps = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Instant finished = finishedAt(pods.get(i));
            Instant nextCreated = pods.get(i + 1).metadata().creationTimestamp();
            gaps.add(Duration.between(finished, nextCreated).toMillis() / 1000.0);
        }
        System.out.printf(
                "back-off at x60: cluster seconds from each failed pod's finish to the next pod's creation: %s "
                        + "(wall %d ms; finishedAt %s)%n",
                gaps,
                wall.toMillis(),
                pods.stream().limit(3).map(p -> finishedAt(p).toString()).toList());
        for (int i = 0; i < 3; i++) {
            double backoff = 10L << i;
            // Running time is the hard case: the Job controller's due time for pod i+1 is finishedAt(i) +
            // 10 s * 2^i (it reads the same finishedAt), but it can only apply it once it has learnt of
            // the failure, and at x60 every wall millisecond of that path is 60 cluster milliseconds.
            // So the gap is max(back-off, observation) + reaction, where
            //  - never below the back-off: cluster-clock timers never fire early; 1 s below it only
            //    because finishedAt has microseconds and creationTimestamp whole seconds;
            //  - observation (the kubelet's status write, the watch, the 1 s pod-event batch, the sync):
            //    up to OBSERVATION_S (500 ms of wall time on a loaded 2-core machine; measured 390-415 ms
            //    there, so the 10 s and 20 s back-offs, 167 and 333 ms of wall time, are often shorter);
            //  - reaction once due (queue timer, sync, the create's round trip): up to REACTION_S (100 ms
            //    of wall time; measured 3 ms for the 40 s back-off).
            // backoffExactlyOnAFrozenClock asserts the spacing with no tolerance at all.
            double upper = Math.max(backoff, OBSERVATION_S) + REACTION_S;
            assertThat(gaps.get(i))
                    .as("cluster seconds from pod %d's end to pod %d's creation: %s", i, i + 1, gaps)
                    .isBetween(backoff - 1, upper);
        }
        assertThat(wall).isLessThan(Duration.ofSeconds(10));
    }

    /** A Job in {@code ns} whose one container always fails, with backoffLimit 3: four pods, three back-offs. */
    private static String failingJob(String ns) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: failing
                  namespace: %s
                spec:
                  backoffLimit: 3
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                        command: ["false"]
                """
                .formatted(ns);
    }

    private static List<Pod> podsByCreation(String ns) {
        return cluster.client.pods().inNamespace(ns).list().stream()
                .sorted(Comparator.comparing(p -> p.metadata().creationTimestamp()))
                .toList();
    }

    private static Instant finishedAt(Pod pod) {
        ContainerStatus s = pod.status().containerStatuses().get(0);
        return s.state().terminated().finishedAt();
    }

    /**
     * Rate x60 and a kubelet-sim process killed with SIGKILL (kill -9 of its own JVM, a real crash: no
     * shutdown hook, containers orphaned): its Node turns NotReady (Unknown) 40 cluster seconds later,
     * its pod is failed and the Job's replacement runs on another node, in a few wall seconds.
     */
    @Test
    @Order(9)
    void nodeLossAtRateSixty() throws Exception {
        String ns = "nodeloss";
        namespace(ns);
        String lost = "node-c";
        Process kubelet = cluster.startKubeletProcess(lost);
        // only the process kubelet's node takes the first pod; the others are cordoned until it runs
        cordon("node-a", true);
        cordon("node-b", true);
        ok("clock", "rate", "60");
        apply(
                """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: survivor
                  namespace: nodeloss
                spec:
                  backoffLimit: 6
                  template:
                    spec:
                      restartPolicy: Never
                      terminationGracePeriodSeconds: 0
                      containers:
                      - name: main
                        image: busybox
                        command: ["sleep", "20"]
                """);
        await().atMost(Duration.ofSeconds(20)).until(() -> cluster.client.pods().inNamespace(ns).list().stream()
                .anyMatch(p -> "Running".equals(p.phase())));
        Pod first = cluster.client.pods().inNamespace(ns).list().get(0);
        assertThat(first.nodeName()).isEqualTo(lost);
        cordon("node-a", false);
        cordon("node-b", false);
        List<ProcessHandle> containers = kubelet.descendants().toList();
        long began = System.nanoTime();
        try {
            kubelet.destroyForcibly(); // SIGKILL
            assertThat(kubelet.waitFor(10, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
            assertThat(kubelet.exitValue()).isEqualTo(137);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                Node node = cluster.client.nodes().get(lost);
                NodeCondition ready = node.status().condition(NodeCondition.READY);
                assertThat(ready.status()).isEqualTo("Unknown");
                Pod old = cluster.client.pods().inNamespace(ns).get(first.name());
                assertThat(old.phase()).isEqualTo("Failed");
                assertThat(cluster.client.pods().inNamespace(ns).list())
                        .anyMatch(
                                p -> p.nodeName() != null && !lost.equals(p.nodeName()) && "Running".equals(p.phase()));
            });
            Duration wall = Duration.ofNanos(System.nanoTime() - began);
            System.out.printf(
                    "node loss at x60: NotReady, pod failed and replacement running %d ms (wall) after kill -9%n",
                    wall.toMillis());
            assertThat(wall).isLessThan(Duration.ofSeconds(15));
        } finally {
            // a crashed kubelet leaves its containers running; they are this test's to clean up
            containers.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static void cordon(String node, boolean unschedulable) {
        cluster.client
                .nodes()
                .patch(
                        node,
                        io.kplane.api.patch.PatchType.MERGE,
                        "{\"spec\":{\"unschedulable\":" + unschedulable + "}}");
    }
}
