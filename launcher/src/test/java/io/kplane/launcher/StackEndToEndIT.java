package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The product as a user meets it: {@code ./kplane up} starts every component as its own OS process on
 * a fresh database (the run's {@link SharedStack}); the examples are applied in this class's namespace
 * with kubectl-lite and the real kubectl, and must end as Kubernetes would end them. Back-offs are
 * shortened through {@code --component-arg} and the examples' sleeps are shortened, nothing else
 * differs from a user's run. {@code kplane down} is StackDownIT's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StackEndToEndIT {
    private static final Path ROOT = LaunchedStack.ROOT;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final SharedStack STACK = new SharedStack("e2e");

    private static Path stateDir;
    private static String server;
    /** The class's namespace: the examples are applied there (the kubeconfig's context defaults to it). */
    private static String ns;

    @BeforeAll
    static void useSharedStack() {
        stateDir = STACK.stateDir();
        server = STACK.server();
        ns = STACK.namespace();
    }

    @Test
    @Order(0)
    void statusAndLogsWorkFromAnotherTerminal() throws Exception {
        Result status = launcherCommand("status", "--state-dir", stateDir.toString());
        assertThat(status.code).as(status.out).isZero();
        for (String component : List.of(
                "postgres",
                "apiserver",
                "job-controller",
                "cronjob-controller",
                "garbage-collector",
                "ttl-controller",
                "scheduler",
                "node-lifecycle",
                "local-path-provisioner",
                "namespace-controller",
                "kubelet-sim-1",
                "kubelet-sim-2")) {
            assertThat(status.out).containsPattern(component + " +\\d+ +\\d+ +healthy");
        }
        Result logs = launcherCommand("logs", "--state-dir", stateDir.toString(), "apiserver");
        assertThat(logs.code).isZero();
        assertThat(logs.out).isNotBlank();
        Result unknown = launcherCommand("logs", "--state-dir", stateDir.toString(), "nosuch");
        assertThat(unknown.code).isEqualTo(1);
        assertThat(unknown.out).startsWith("error: no log for component \"nosuch\"");
    }

    @Test
    @Order(1)
    void piJobCompletesAndItsLogIsServed() throws Exception {
        Result apply = kubectlLite("apply", "-f", example("pi-job.yaml").toString());
        assertThat(apply.out).contains("job.batch/pi created");
        Result wait = kubectlLite("wait", "--for=condition=complete", "job/pi", "--timeout=120s");
        assertThat(wait.code).as(wait.toString()).isZero();
        JsonNode job = get("/apis/batch/v1/namespaces/" + ns + "/jobs/pi");
        assertThat(job.at("/status/succeeded").asInt()).isEqualTo(1);
        assertThat(job.at("/status/failed").asInt()).isZero();
        Result logs = kubectlLite("logs", "job/pi");
        assertThat(logs.out).contains("3.14159");
        Result real = kubectl("get", "jobs", "pi");
        assertThat(real.out).contains("pi").contains("Complete").contains("1/1");
    }

    @Test
    @Order(2)
    void backoffLimitWithRestartPolicyNeverKeepsFourFailedPods() throws Exception {
        applyFastVariant("backoff-never.yaml");
        JsonNode job = awaitFinished("backoff-never");
        assertThat(condition(job, "Failed").path("reason").asText()).isEqualTo("BackoffLimitExceeded");
        assertThat(job.at("/status/failed").asInt()).isEqualTo(4);
        JsonNode pods =
                get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=backoff-never");
        assertThat(pods.path("items")).hasSize(4);
        pods.path("items")
                .forEach(p -> assertThat(p.at("/status/phase").asText()).isEqualTo("Failed"));
        assertThat(runs("backoff-never.yaml")).isEqualTo(4);
    }

    @Test
    @Order(3)
    void backoffLimitWithRestartPolicyOnFailureRunsOnePodFourTimes() throws Exception {
        applyFastVariant("backoff-onfailure.yaml");
        JsonNode job = awaitFinished("backoff-onfailure");
        assertThat(condition(job, "Failed").path("reason").asText()).isEqualTo("BackoffLimitExceeded");
        assertThat(job.at("/status/failed").asInt()).isEqualTo(1);
        // The pod is deleted once the Job fails (its last run cut short).
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/v1/namespaces/" + ns
                        + "/pods?labelSelector=batch.kubernetes.io/job-name=backoff-onfailure")
                .path("items")
                .isEmpty());
        assertThat(runs("backoff-onfailure.yaml")).as("one pod, restarts 0..3").isEqualTo(4);
        Result events = kubectl("get", "events", "--field-selector", "involvedObject.name=backoff-onfailure");
        assertThat(events.out).contains("BackoffLimitExceeded");
    }

    @Test
    @Order(4)
    void indexedJobRecordsEveryIndex() throws Exception {
        kubectl("apply", "-f", example("indexed-job.yaml").toString());
        JsonNode job = awaitFinished("indexed");
        assertThat(condition(job, "Complete").path("status").asText()).isEqualTo("True");
        assertThat(job.at("/status/completedIndexes").asText()).isEqualTo("0-4");
        assertThat(job.at("/status/succeeded").asInt()).isEqualTo(5);
    }

    @Test
    @Order(5)
    void podFailurePolicyFailsTheJobOnExitCode42() throws Exception {
        kubectlLite("apply", "-f", example("pod-failure-policy-job.yaml").toString());
        JsonNode job = awaitFinished("pod-failure-policy");
        assertThat(condition(job, "Failed").path("reason").asText()).isEqualTo("PodFailurePolicy");
    }

    @Test
    @Order(5)
    void suspendedJobRunsNothingUntilResumed() throws Exception {
        Result create = kubectl("create", "-f", example("suspended-job.yaml").toString());
        assertThat(create.out).contains("job.batch/suspended created");
        await().atMost(Duration.ofSeconds(30)).until(() -> "True"
                .equals(condition(get("/apis/batch/v1/namespaces/" + ns + "/jobs/suspended"), "Suspended")
                        .path("status")
                        .asText()));
        assertThat(get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=suspended")
                        .path("items"))
                .isEmpty();
        Result resume = kubectlLite("resume", "job/suspended");
        assertThat(resume.code).as(resume.toString()).isZero();
        JsonNode job = awaitFinished("suspended");
        assertThat(job.at("/status/succeeded").asInt()).isEqualTo(5);
        assertThat(condition(job, "Suspended").path("status").asText()).isEqualTo("False");
        Result events = kubectlLite("describe", "job", "suspended");
        assertThat(events.out).contains("Suspended").contains("Resumed");
    }

    @Test
    @Order(6)
    void finishedJobIsDeletedAfterItsTtlWithItsPods() throws Exception {
        String manifest = Files.readString(example("parallel-job.yaml"))
                .replace("ttlSecondsAfterFinished: 100", "ttlSecondsAfterFinished: 3")
                .replace("sleep 2", "sleep 1");
        Path file = stateDir.resolve("parallel.yaml");
        Files.writeString(file, manifest);
        kubectlLite("apply", "-f", file.toString());
        // never more than parallelism (2) pods running at once
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        JsonNode job = null;
        while (System.nanoTime() < deadline) {
            JsonNode j = get("/apis/batch/v1/namespaces/" + ns + "/jobs/parallel");
            if (j.path("kind").asText().equals("Job")) {
                assertThat(j.at("/status/active").asInt()).isLessThanOrEqualTo(2);
                if ("True".equals(condition(j, "Complete").path("status").asText())) {
                    job = j;
                    break;
                }
            }
            Thread.sleep(200);
        }
        assertThat(job).as("parallel completed").isNotNull();
        assertThat(job.at("/status/succeeded").asInt()).isEqualTo(4);
        await("TTL deletion")
                .atMost(Duration.ofSeconds(60))
                .until(() -> get("/apis/batch/v1/namespaces/" + ns + "/jobs/parallel")
                                .path("code")
                                .asInt()
                        == 404);
        await("pods deleted with the job").atMost(Duration.ofSeconds(60)).until(() -> get("/api/v1/namespaces/" + ns
                        + "/pods?labelSelector=batch.kubernetes.io/job-name=parallel")
                .path("items")
                .isEmpty());
    }

    @Test
    @Order(7)
    void deletionCascadesLikeKubernetes() throws Exception {
        // foreground with the real kubectl: the Job disappears only after its pods
        Result fg = kubectl("delete", "job", "indexed", "--cascade=foreground");
        assertThat(fg.code).as(fg.toString()).isZero();
        assertThat(get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=indexed")
                        .path("items"))
                .isEmpty();
        // orphan: the pods stay, without an owner
        Result orphan = kubectlLite("delete", "job", "backoff-never", "--cascade=orphan");
        assertThat(orphan.code).as(orphan.toString()).isZero();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> get("/apis/batch/v1/namespaces/" + ns + "/jobs/backoff-never")
                                .path("code")
                                .asInt()
                        == 404);
        JsonNode orphans =
                get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=backoff-never");
        assertThat(orphans.path("items")).hasSize(4);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> get("/api/v1/namespaces/" + ns
                        + "/pods?labelSelector=batch.kubernetes.io/job-name=backoff-never")
                .path("items")
                .forEach(p ->
                        assertThat(p.at("/metadata/ownerReferences").size()).isZero()));
        // background (kubectl's default): pods follow the job
        Result bg = kubectl("delete", "job", "pod-failure-policy");
        assertThat(bg.code).as(bg.toString()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/v1/namespaces/" + ns
                        + "/pods?labelSelector=batch.kubernetes.io/job-name=pod-failure-policy")
                .path("items")
                .isEmpty());
    }

    /**
     * First, so that its first run (at the next minute of wall time) comes while the Jobs below run:
     * waiting for it at the end cost up to a minute of wall time (31 s in a CI run). Its Jobs and pods are
     * told apart by name and label like every other example's, so the tests in between do not see them.
     */
    @Test
    @Order(0)
    void helloCronJobIsCreatedFirst() throws Exception {
        Result apply = kubectl("apply", "-f", example("hello-cronjob.yaml").toString());
        assertThat(apply.out).contains("cronjob.batch/hello created");
    }

    @Test
    @Order(8)
    void cronJobRunsEveryMinuteAndKeepsItsHistory() throws Exception {
        JsonNode jobs = await("a scheduled run of the CronJob created first")
                .atMost(Duration.ofSeconds(100))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> get("/apis/batch/v1/namespaces/" + ns + "/jobs"), l -> {
                    for (JsonNode j : l.path("items")) {
                        if (j.at("/metadata/name").asText().startsWith("hello-")
                                && "True"
                                        .equals(condition(j, "Complete")
                                                .path("status")
                                                .asText())) {
                            return true;
                        }
                    }
                    return false;
                });
        String name = null;
        for (JsonNode j : jobs.path("items")) {
            if (j.at("/metadata/name").asText().startsWith("hello-")) {
                name = j.at("/metadata/name").asText();
                assertThat(j.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("CronJob");
            }
        }
        long scheduledMinute = Long.parseLong(name.substring("hello-".length()));
        assertThat(scheduledMinute * 60)
                .isCloseTo(System.currentTimeMillis() / 1000, org.assertj.core.data.Offset.offset(150L));
        Result logs = kubectlLite("logs", "job/" + name);
        assertThat(logs.out).contains("Hello from the Kubernetes cluster");
        JsonNode cj = get("/apis/batch/v1/namespaces/" + ns + "/cronjobs/hello");
        assertThat(cj.at("/status/lastScheduleTime").asText()).isNotEmpty();
        Result suspend = kubectlLite("suspend", "cronjob/hello");
        assertThat(suspend.code).as(suspend.toString()).isZero();
    }

    @Test
    @Order(9)
    void realKubectlReadsTheStack() throws Exception {
        Result describe = kubectl("describe", "job", "pi");
        assertThat(describe.out)
                .contains("Pods Statuses:")
                .contains("1 Succeeded")
                .contains("SuccessfulCreate");
        Result logs = kubectl("logs", "job/pi");
        assertThat(logs.out).contains("3.14159");
        Result pods = kubectl("get", "pods", "-l", "batch.kubernetes.io/job-name=pi");
        assertThat(pods.out).contains("Completed");
        Result nodes = kubectl("get", "nodes");
        assertThat(nodes.out).contains("node-1").contains("node-2").contains("Ready");
    }

    /**
     * Every component's /metrics against its checked-in list (src/test/resources/metrics/), after the
     * tests above exercised them; and the lens's sync records of gc, ttl and the scheduler in the real stack.
     */
    @Test
    @Order(9)
    void everyComponentServesTheCheckedInMetricNamesAndItsSyncRecords() throws Exception {
        StateFile state = StateFile.read(stateDir);
        List<String> problems = new ArrayList<>();
        java.util.Set<String> listed = new java.util.TreeSet<>();
        for (StateFile.Entry e : state.components()) {
            if (e.healthPath() == null) {
                continue; // postgres
            }
            String list = e.name().startsWith("kubelet-sim") ? "kubelet-sim" : e.name();
            listed.add(list);
            java.util.Set<String> scraped = MetricNames.scrape("http://127.0.0.1:" + e.healthPort() + "/metrics");
            MetricNames.writeActual(list, scraped);
            MetricNames expected = MetricNames.checkedIn(list);
            List<String> missing = expected.missingFrom(scraped);
            List<String> unlisted = expected.unlistedIn(scraped);
            if (!missing.isEmpty() || !unlisted.isEmpty()) {
                problems.add(
                        e.name() + ": missing " + missing + ", not listed " + unlisted + " (scraped: " + scraped + ")");
            }
        }
        assertThat(listed)
                .contains(
                        "apiserver",
                        "job-controller",
                        "cronjob-controller",
                        "garbage-collector",
                        "ttl-controller",
                        "scheduler",
                        "node-lifecycle",
                        "kubelet-sim");
        assertThat(problems)
                .as("metric names differ from src/test/resources/metrics/*.txt")
                .isEmpty();

        // labels as upstream's, on a real scrape
        String apiHostPort = URI.create(server).getAuthority();
        assertThat(metricsText(state, "job-controller"))
                .contains(
                        "rest_client_requests_total{code=\"200\",host=\"" + apiHostPort + "\",method=\"GET\"}",
                        "rest_client_requests_total{code=\"201\",host=\"" + apiHostPort + "\",method=\"POST\"}",
                        "job_controller_terminated_pods_tracking_finalizer_total{event=\"add\"}",
                        "job_controller_terminated_pods_tracking_finalizer_total{event=\"delete\"}",
                        "job_controller_pod_failures_handled_by_failure_policy_total{action=\"FailJob\"}");
        assertThat(metricsText(state, "kubelet-sim-1"))
                .contains("rest_client_requests_total{code=\"200\",host=\"" + apiHostPort + "\",method=\"GET\"}");
        assertThat(metricsText(state, "ttl-controller"))
                .containsPattern("ttl_after_finished_controller_job_deletion_duration_seconds_count [1-9]");

        // the sync records those controllers wrote while the tests above ran, read from their /lens/*
        JsonNode ttl = lens(state, "ttl-controller", "/lens/objects/" + ns + "/parallel");
        assertThat(ttl.path("syncs")).anySatisfy(r -> {
            assertThat(r.at("/sync/decision").asText()).isEqualTo("deleted");
            assertThat(r.at("/sync/writes/0/verb").asText()).isEqualTo("delete (Background)");
        });
        JsonNode gc = lens(state, "garbage-collector", "/lens/objects/" + ns + "/backoff-never");
        assertThat(gc.path("syncs"))
                .anySatisfy(r -> assertThat(r.at("/sync/decision").asText()).isEqualTo("orphan"));
        String podOfPi = get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=pi")
                .at("/items/0/metadata/name")
                .asText();
        JsonNode scheduled = lens(state, "scheduler", "/lens/objects/" + ns + "/" + podOfPi);
        assertThat(scheduled.path("syncs")).anySatisfy(r -> {
            assertThat(r.at("/sync/decision").asText()).isEqualTo("bound");
            // a verdict per node the scheduler's cache held then: the chosen one says why
            assertThat(r.at("/sync/saw").toString()).contains("chosen: fits, fewest pods");
        });
    }

    private static String metricsText(StateFile state, String component) throws Exception {
        int port = state.components().stream()
                .filter(c -> c.name().equals(component))
                .findFirst()
                .orElseThrow()
                .healthPort();
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static JsonNode lens(StateFile state, String component, String path) throws Exception {
        int port = state.components().stream()
                .filter(c -> c.name().equals(component))
                .findFirst()
                .orElseThrow()
                .healthPort();
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(component + " " + path).isEqualTo(200);
        return Json.tree(r.body());
    }

    @Test
    @Order(10)
    void parallelJobSurvivesKillingTheJobControllerApiServerAndKubelet() throws Exception {
        String manifest = Files.readString(example("parallel-job.yaml"))
                .replace("name: parallel", "name: drill")
                .replace("completions: 4", "completions: 12")
                .replace("sleep 2", "sleep 3")
                .replace("activeDeadlineSeconds: 100", "activeDeadlineSeconds: 600");
        Path file = stateDir.resolve("drill.yaml");
        Files.writeString(file, manifest);
        kubectlLite("apply", "-f", file.toString());
        for (String component : List.of("job-controller", "apiserver", "kubelet-sim-1")) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> get("/apis/batch/v1/namespaces/" + ns + "/jobs/drill")
                                    .at("/status/active")
                                    .asInt()
                            > 0);
            killDashNine(component);
        }
        JsonNode job = awaitFinished("drill");
        assertThat(condition(job, "Complete").path("status").asText()).isEqualTo("True");
        assertThat(job.at("/status/succeeded").asInt()).isEqualTo(12);
        JsonNode pods = get("/api/v1/namespaces/" + ns + "/pods?labelSelector=batch.kubernetes.io/job-name=drill");
        long succeededPods = 0;
        for (JsonNode p : pods.path("items")) {
            if (p.at("/status/phase").asText().equals("Succeeded")) {
                succeededPods++;
            }
        }
        assertThat(succeededPods).as("no completion counted twice or lost").isEqualTo(12);
    }

    // --- helpers ---

    private static void killDashNine(String component) throws IOException {
        StateFile s = StateFile.read(stateDir);
        long pid = s.components().stream()
                .filter(e -> e.name().equals(component))
                .findFirst()
                .orElseThrow()
                .pid();
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        // the launcher restarts it; wait for a new, healthy process
        await(component + " restarted")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    StateFile now = StateFile.read(stateDir);
                    StateFile.Entry e = now.components().stream()
                            .filter(c -> c.name().equals(component))
                            .findFirst()
                            .orElseThrow();
                    return e.pid() != pid
                            && HealthProbe.healthy(new ComponentSpec(
                                    e.name(),
                                    e.name(),
                                    List.of(),
                                    java.util.Map.of(),
                                    e.healthPort(),
                                    e.healthPath(),
                                    List.of()));
                });
    }

    /** Number of times a container of the example started (each run appends a line on the host). */
    private static long runs(String example) throws IOException {
        Path marker = stateDir.resolve(example + ".runs");
        return Files.exists(marker) ? Files.readAllLines(marker).size() : 0;
    }

    private static void applyFastVariant(String example) throws Exception {
        String manifest = Files.readString(example(example))
                .replace("sleep 20", "sleep 1")
                .replace(
                        "echo \"Hello world!\"",
                        "echo run >> " + stateDir.resolve(example + ".runs") + " && echo \"Hello world!\"");
        Path file = stateDir.resolve(example);
        Files.writeString(file, manifest);
        Result r = kubectlLite("apply", "-f", file.toString());
        assertThat(r.code).as(r.toString()).isZero();
    }

    private static JsonNode awaitFinished(String name) {
        return await(name + " finished")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> get("/apis/batch/v1/namespaces/" + ns + "/jobs/" + name),
                        j -> "True"
                                        .equals(condition(j, "Complete")
                                                .path("status")
                                                .asText())
                                || "True"
                                        .equals(condition(j, "Failed")
                                                .path("status")
                                                .asText()));
    }

    private static JsonNode condition(JsonNode job, String type) {
        for (JsonNode c : job.at("/status/conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return Json.mapper().createObjectNode();
    }

    private static JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.tree(r.body());
    }

    private static Path example(String name) {
        return ROOT.resolve("examples").resolve(name);
    }

    record Result(int code, String out) {}

    private static Result kubectlLite(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                ROOT.resolve("deploy/bin/kplane-component").toString(),
                "kubectl-lite",
                "--kubeconfig",
                STACK.kubeconfig().toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static Result launcherCommand(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LaunchedStack.javaBinary(), "-jar", LaunchedStack.launcherJar()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static Result kubectl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of("kubectl", "--kubeconfig", STACK.kubeconfig().toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static Result run(List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", stateDir.toString()); // a fresh kubectl discovery cache
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
