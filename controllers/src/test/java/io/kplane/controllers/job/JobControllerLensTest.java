package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncSummary;
import io.kplane.client.time.Clock;
import io.kplane.controllers.testing.ApiServerTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lens on the real Job controller (real API server, PostgreSQL, informers): a Job with completions
 * 3 shows, in order, its key entering the queue, a sync deciding {@code pods_created} with three pod
 * creates carrying their resourceVersions and SuccessfulCreate events, the pods' watch events,
 * expectations satisfied, and the sync that finishes the Job.
 */
class JobControllerLensTest extends ApiServerTest {
    private static final JobSyncConfig FAST = JobSyncConfig.defaults()
            .withBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
            .withPodEventBatchPeriod(Duration.ofMillis(20));

    @Test
    void aJobsLoopIsRecordedFromWatchEventToComplete() throws Exception {
        LensRecorder lens = new LensRecorder("job-controller", "test", Clock.system(), 65_536, 1_000_000);
        var registry = io.kplane.controllers.runtime.HealthServer.newRegistry();
        io.kplane.controllers.runtime.LensMetrics.bind(lens, registry);
        String name = uniqueName("lens");
        String key = "default/" + name;
        try (InProcessJobController controller = InProcessJobController.start(client, FAST, lens, registry);
                FakeKubelet kubelet = FakeKubelet.start(client, "default", name, (k, pod, n) -> k.succeed(pod))) {
            client.jobs()
                    .inNamespace("default")
                    .create(JobControllerIntegrationTest.job(
                            name, "Never", s -> s.completions(3).parallelism(3)));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Job job = client.jobs().inNamespace("default").get(name);
                return job.isFinished();
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> lens.syncsOf(key).stream()
                    .anyMatch(
                            r -> r.sync().reason() != null && r.sync().reason().contains("Complete")));

            List<LensRecord> all = lens.since(0, 65_536);
            int enqueued = indexOf(
                    all,
                    r -> "queue".equals(r.stage())
                            && "job".equals(r.controller())
                            && key.equals(r.key())
                            && ("add".equals(r.type()) || "add-after".equals(r.type())));
            int created = indexOf(
                    all,
                    r -> r.sync() != null
                            && key.equals(r.key())
                            && r.sync().decision() != null
                            && r.sync().decision().contains("pods_created"));
            int started = indexOf(all, r -> "queue".equals(r.stage()) && "get".equals(r.type()) && key.equals(r.key()));
            int podEvent = indexOf(
                    all,
                    r -> "reflector".equals(r.stage())
                            && "event".equals(r.type())
                            && "pods".equals(r.resource())
                            && r.key() != null
                            && r.key().startsWith(key + "-"));
            int satisfied = indexOf(
                    all, r -> "expectations".equals(r.stage()) && "satisfied".equals(r.type()) && key.equals(r.key()));
            int complete = indexOf(
                    all,
                    r -> r.sync() != null
                            && key.equals(r.key())
                            && r.sync().reason() != null
                            && r.sync().reason().contains("Complete"));
            assertThat(List.of(enqueued, started, created, podEvent, satisfied, complete))
                    .doesNotContain(-1);
            // a sync record is written when the sync ends: its writes may come back as watch events
            // before it, and are matched by resourceVersion; the key's queue "get" marks its start
            assertThat(enqueued).isLessThan(started);
            assertThat(started).isLessThan(podEvent);
            assertThat(started).isLessThan(created);
            assertThat(podEvent).isLessThan(satisfied);
            assertThat(satisfied).isLessThan(complete);

            SyncSummary sync = all.get(created).sync();
            assertThat(sync.triggers()).anySatisfy(t -> {
                assertThat(t.type()).isEqualTo("ADDED");
                assertThat(t.resource()).isEqualTo("jobs");
                assertThat(t.key()).isEqualTo(key);
            });
            assertThat(sync.saw()).containsEntry("active", 0).containsEntry("expectations", "satisfied");
            assertThat(sync.writes())
                    .filteredOn(w -> w.verb().equals("create"))
                    .hasSize(3)
                    .allSatisfy(w -> assertThat(w.rv()).isNotBlank());
            assertThat(sync.events())
                    .filteredOn(e -> e.reason().equals("SuccessfulCreate"))
                    .hasSize(3);
            List<String> createdRvs = sync.writes().stream()
                    .filter(w -> w.verb().equals("create"))
                    .map(SyncSummary.Write::rv)
                    .toList();
            assertThat(all)
                    .filteredOn(r -> "reflector".equals(r.stage())
                            && "event".equals(r.type())
                            && "pods".equals(r.resource())
                            && "ADDED".equals(r.detail().get("type"))
                            && r.key() != null
                            && r.key().startsWith(key + "-"))
                    .extracting(LensRecord::rv)
                    .containsExactlyInAnyOrderElementsOf(createdRvs);
            assertThat(all.get(created).uid()).isNotBlank();
            assertThat(all.get(complete).sync().writes())
                    .anySatisfy(w -> assertThat(w.verb()).isEqualTo("update status"));
            // the shared machinery was recorded too
            assertThat(all).anyMatch(r -> "reflector".equals(r.stage()) && "list-end".equals(r.type()));
            assertThat(all).anyMatch(r -> "fifo".equals(r.stage()) && "pop".equals(r.type()));
            assertThat(all).anyMatch(r -> "handler".equals(r.stage()));
            assertThat(lens.gauges())
                    .containsKeys(
                            "cacheObjects.jobs", "cacheObjects.pods", "fifoDepth.pods", "pendingExpectations.job");

            // the job controller's /metrics names: exactly the checked-in list (upstream's names where they exist)
            java.util.Set<String> scraped = new java.util.TreeSet<>();
            for (String line : registry.scrape().split("\n")) {
                if (line.startsWith("# TYPE ")) {
                    String metric = line.split(" ")[2];
                    if (!metric.endsWith("_max")) {
                        scraped.add(metric);
                    }
                }
            }
            List<String> expected;
            try (var in = getClass().getResourceAsStream("/lens/job-controller-metrics.txt")) {
                expected = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                        .lines()
                        .map(String::trim)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                        .toList();
            }
            assertThat(scraped).containsAll(expected);
            // a watch ending (server timeout) during the test adds its restart counter: the only optional name
            assertThat(scraped).allMatch(n -> expected.contains(n) || n.equals("kplane_informer_watch_restarts_total"));
            String text = registry.scrape();
            // upstream's finalizer metric, counted in the pod event handlers: 3 finished pods held the
            // job-tracking finalizer (add), and each lost it once counted (delete)
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.scrape()
                    .contains("job_controller_terminated_pods_tracking_finalizer_total{event=\"delete\"} 3.0"));
            assertThat(registry.scrape())
                    .contains(
                            "job_controller_terminated_pods_tracking_finalizer_total{event=\"add\"} 3.0",
                            "job_controller_pod_failures_handled_by_failure_policy_total{action=\"FailJob\"} 0.0");
            assertThat(text)
                    .contains(
                            "job_controller_job_syncs_total{action=\"pods_created\",result=\"success\"}",
                            "job_controller_jobs_finished_total{completion_mode=\"NonIndexed\",reason=\"\",result=\"succeeded\"} 1.0",
                            "job_controller_job_pods_finished_total{completion_mode=\"NonIndexed\",result=\"succeeded\"} 3.0",
                            "workqueue_adds_total{name=\"job\"}");
        }
    }

    /**
     * {@code job_controller_pod_failures_handled_by_failure_policy_total{action}}: one pod ignored (exit 3),
     * one counted (exit 1), then one failing the Job (exit 42); each shows in its sync record's saw and in
     * the scrape, and the pods the failing Job deletes (no rule matched) are not counted.
     */
    @Test
    void podFailurePolicyActionsAreCountedFromTheSyncRecords() throws Exception {
        LensRecorder lens = new LensRecorder("job-controller", "test", Clock.system(), 65_536, 1_000_000);
        var registry = io.kplane.controllers.runtime.HealthServer.newRegistry();
        io.kplane.controllers.runtime.LensMetrics.bind(lens, registry);
        String name = uniqueName("lens-pfp");
        io.kplane.api.batch.PodFailurePolicy policy = new io.kplane.api.batch.PodFailurePolicy(List.of(
                rule(io.kplane.api.batch.PodFailurePolicyRule.IGNORE, 3),
                rule(io.kplane.api.batch.PodFailurePolicyRule.COUNT, 1),
                rule(io.kplane.api.batch.PodFailurePolicyRule.FAIL_JOB, 42)));
        java.util.Map<Integer, io.kplane.api.core.Pod> pods = new java.util.concurrent.ConcurrentHashMap<>();
        try (InProcessJobController controller = InProcessJobController.start(client, FAST, lens, registry);
                FakeKubelet kubelet = FakeKubelet.start(client, "default", name, (k, pod, n) -> {
                    pods.put(n, pod);
                    k.running(pod, 0);
                    switch (n) {
                        case 0 -> k.after(Duration.ofMillis(20), pod, () -> k.fail(pod, 3));
                        case 1 -> k.after(Duration.ofMillis(20), pod, () -> k.fail(pod, 1));
                        default -> {} // runs until the test fails it or the failing Job deletes it
                    }
                })) {
            client.jobs()
                    .inNamespace("default")
                    .create(JobControllerIntegrationTest.job(
                            name,
                            "Never",
                            s -> s.completions(3).parallelism(3).backoffLimit(6).podFailurePolicy(policy)));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                String text = registry.scrape();
                return text.contains(
                                "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Ignore\"} 1.0")
                        && text.contains(
                                "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Count\"} 1.0");
            });
            assertThat(lens.syncsOf("default/" + name))
                    .anySatisfy(r -> assertThat(r.sync().saw()).containsKey(JobControllerMetrics.SAW_POLICY_ACTIONS));
            kubelet.fail(pods.get(2), 42);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> client.jobs().inNamespace("default").get(name).isFinished());
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.scrape()
                    .contains("job_controller_pod_failures_handled_by_failure_policy_total{action=\"FailJob\"} 1.0"));
            String text = registry.scrape();
            assertThat(text)
                    .contains(
                            "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Ignore\"} 1.0",
                            "job_controller_pod_failures_handled_by_failure_policy_total{action=\"Count\"} 1.0");
        }
    }

    private static io.kplane.api.batch.PodFailurePolicyRule rule(String action, int exitCode) {
        return new io.kplane.api.batch.PodFailurePolicyRule(
                action,
                new io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement(
                        null, io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement.IN, List.of(exitCode)),
                null);
    }

    private static int indexOf(List<LensRecord> records, java.util.function.Predicate<LensRecord> p) {
        for (int i = 0; i < records.size(); i++) {
            if (p.test(records.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
