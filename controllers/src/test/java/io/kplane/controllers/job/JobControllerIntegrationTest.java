package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.batch.PodFailurePolicy;
import io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.kplane.api.batch.PodFailurePolicyRule;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.EnvVar;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.patch.PatchType;
import io.kplane.client.ListOptions;
import io.kplane.controllers.testing.ApiServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Job controller end to end on a real API server and PostgreSQL: the controller runs in this
 * JVM with a real client and informers; a {@link FakeKubelet} reports pod statuses through the API;
 * a {@link JobRunMonitor} watches the Job and its pods to check concurrency and counting.
 */
class JobControllerIntegrationTest extends ApiServerTest {
    private static final String NS = "default";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Fast but real: 20 ms pod-event batching, 50 ms doubling re-creation back-off capped at 200 ms. */
    private static final JobSyncConfig FAST = JobSyncConfig.defaults()
            .withBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
            .withPodEventBatchPeriod(Duration.ofMillis(20));

    private InProcessJobController controller;
    private FakeKubelet kubelet;
    private JobRunMonitor monitor;

    @AfterEach
    void stopEverything() {
        if (kubelet != null) {
            kubelet.close();
        }
        if (monitor != null) {
            monitor.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    static Job job(String name, String restartPolicy, UnaryOperator<JobSpecBuilder> spec) {
        Container container = ContainerBuilder.builder()
                .name(FakeKubelet.CONTAINER)
                .image("busybox")
                .command(List.of("sh", "-c", "true"))
                .build();
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(container))
                        .restartPolicy(restartPolicy)
                        .build());
        JobSpec s = spec.apply(JobSpecBuilder.builder().template(template)).build();
        return new Job(null, null, ObjectMeta.named(NS, name), s, null);
    }

    /** Starts the controller, then the monitor and the kubelet (both before the Job exists), then creates the Job. */
    private Job run(JobSyncConfig config, Job job, FakeKubelet.Script script) throws Exception {
        controller = InProcessJobController.start(client, config);
        monitor = JobRunMonitor.start(client, NS, job.metadata().name());
        kubelet = FakeKubelet.start(client, NS, job.metadata().name(), script);
        return client.jobs().inNamespace(NS).create(job);
    }

    private static Job live(String name) {
        return client.jobs().inNamespace(NS).get(name);
    }

    private static JobStatus awaitCondition(String name, String type) {
        await().atMost(TIMEOUT).until(() -> {
            JobStatus s = live(name).status();
            return s != null && s.hasTrueCondition(type);
        });
        return live(name).status();
    }

    private static void patchSpec(String name, String specJson) {
        client.jobs().inNamespace(NS).patch(name, PatchType.MERGE, "{\"spec\":" + specJson + "}");
    }

    private static List<Pod> podsOf(String name) {
        return client.pods()
                .inNamespace(NS)
                .list(ListOptions.labelSelector(Job.JOB_NAME_LABEL + "=" + name))
                .items();
    }

    /** Every finished pod counted exactly once: no tracking finalizer left, nothing uncounted, counters never ahead. */
    private void assertEveryPodCountedOnce(String name, boolean deletedCountAsFailed) {
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(podsOf(name))
                .allSatisfy(p -> assertThat(p.metadata().finalizersOrEmpty()).doesNotContain(Job.TRACKING_FINALIZER)));
        JobStatus s = live(name).status();
        if (s.uncountedTerminatedPods() != null) {
            assertThat(s.uncountedTerminatedPods().succeededOrEmpty()).isEmpty();
            assertThat(s.uncountedTerminatedPods().failedOrEmpty()).isEmpty();
        }
        monitor.assertCountsNeverRanAhead(deletedCountAsFailed);
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }

    @Test
    void completionsThreeParallelismTwoSucceedsThreeTimesWithNeverMoreThanTwoActive() throws Exception {
        String name = uniqueName("c3p2");
        run(FAST, job(name, "Never", s -> s.completions(3).parallelism(2)), (k, pod, n) -> {
            k.running(pod, 0);
            k.after(Duration.ofMillis(150), pod, () -> k.succeed(pod));
        });

        JobStatus status = awaitCondition(name, JobCondition.COMPLETE);
        assertThat(nz(status.succeeded())).isEqualTo(3);
        assertThat(nz(status.failed())).isZero();
        assertThat(nz(status.active())).isZero();
        assertThat(status.completionTime()).isNotNull();
        assertThat(status.startTime()).isNotNull();
        assertThat(monitor.pods()).hasSize(3);
        assertThat(monitor.succeededPods()).isEqualTo(3);
        assertThat(monitor.maxActive()).isEqualTo(2);
        assertEveryPodCountedOnce(name, false);
        assertThat(controller.events(NS + "/" + name, "SuccessfulCreate")).hasSize(3);
        assertThat(controller.events(NS + "/" + name, "Completed")).hasSize(1);
    }

    /**
     * A pod finishing alone is counted at once (PodEventBatching): with a 60 s pod-event batch period
     * the Job is Complete long before the period would have let a batched sync run.
     */
    @Test
    void aLoneFinishingPodCompletesItsJobWithoutWaitingForTheBatchPeriod() throws Exception {
        String name = uniqueName("lone");
        JobSyncConfig slowBatches = FAST.withPodEventBatchPeriod(Duration.ofSeconds(60));
        run(slowBatches, job(name, "Never", s -> s), (k, pod, n) -> {
            k.running(pod, 0);
            k.after(Duration.ofMillis(50), pod, () -> k.succeed(pod));
        });

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JobStatus s = live(name).status();
            return s != null && s.hasTrueCondition(JobCondition.COMPLETE);
        });
        JobStatus status = live(name).status();
        assertThat(nz(status.succeeded())).isEqualTo(1);
        assertThat(nz(status.active())).isZero();
        assertEveryPodCountedOnce(name, false);
    }

    /** Seed 003, restartPolicy Never: backoffLimit 3 means 3 retries, so 4 failed pods. */
    @Test
    void backoffLimitThreeWithRestartNeverFailsAfterFourFailedPods() throws Exception {
        String name = uniqueName("never");
        run(FAST, job(name, "Never", s -> s.backoffLimit(3)), (k, pod, n) -> {
            k.running(pod, 0);
            k.after(Duration.ofMillis(30), pod, () -> k.fail(pod, 1));
        });

        JobStatus status = awaitCondition(name, JobCondition.FAILED);
        JobCondition failed = status.condition(JobCondition.FAILED);
        assertThat(failed.reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(failed.message()).isEqualTo("Job has reached the specified backoff limit");
        assertThat(nz(status.failed())).isEqualTo(4);
        assertThat(nz(status.succeeded())).isZero();
        assertThat(nz(status.active())).isZero();
        assertThat(status.completionTime()).isNull();
        assertEveryPodCountedOnce(name, true);
        assertThat(monitor.pods()).hasSize(4);
        assertThat(monitor.failedPods()).isEqualTo(4);
        assertThat(monitor.maxActive()).isEqualTo(1);
        assertThat(controller.events(NS + "/" + name, "BackoffLimitExceeded")).hasSize(1);
    }

    /**
     * Seed 003, restartPolicy OnFailure: the one pod restarts its container in place; when the
     * restarts reach backoffLimit 3 the Job fails and the still running pod is deleted.
     */
    @Test
    void backoffLimitThreeWithOnFailureFailsWhenRestartsReachThreeAndDeletesThePod() throws Exception {
        String name = uniqueName("onfailure");
        run(FAST, job(name, "OnFailure", s -> s.backoffLimit(3)), (k, pod, n) -> {
            k.running(pod, 0);
            k.after(Duration.ofMillis(100), pod, () -> k.running(pod, 1));
            k.after(Duration.ofMillis(200), pod, () -> k.running(pod, 2));
            k.after(Duration.ofMillis(300), pod, () -> k.running(pod, 3));
        });

        JobStatus status = awaitCondition(name, JobCondition.FAILED);
        assertThat(status.condition(JobCondition.FAILED).reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(nz(status.failed())).isEqualTo(1);
        assertThat(nz(status.active())).isZero();
        await().atMost(TIMEOUT).until(() -> podsOf(name).isEmpty());
        List<JobRunMonitor.PodHistory> pods = monitor.pods();
        assertThat(pods).hasSize(1);
        assertThat(pods.get(0).deletionStartedAt).isPositive();
        assertThat(pods.get(0).failedAt)
                .as("deleted while running, not reported failed")
                .isZero();
        assertEveryPodCountedOnce(name, true);
    }

    /** Failed pods are re-created after base, 2·base, … capped at max, counted from the failure's finish time. */
    @Test
    void podRecreationBacksOffDoublingUpToTheCap() throws Exception {
        Duration base = Duration.ofMillis(250);
        Duration max = Duration.ofMillis(600);
        String name = uniqueName("backoff");
        run(FAST.withBackoff(base, max), job(name, "Never", s -> s.backoffLimit(3)), (k, pod, n) -> k.fail(pod, 1));

        awaitCondition(name, JobCondition.FAILED);
        List<JobRunMonitor.PodHistory> pods = monitor.pods();
        assertThat(pods).hasSize(4);
        Duration[] expected = {base, base.multipliedBy(2), max};
        for (int i = 1; i < pods.size(); i++) {
            Instant previousFinished = kubelet.finishedAt(pods.get(i - 1).uid);
            Duration gap = Duration.between(previousFinished, pods.get(i).observedCreated);
            assertThat(gap)
                    .as("delay before pod %d", i + 1)
                    .isGreaterThanOrEqualTo(expected[i - 1])
                    .isLessThan(expected[i - 1].plusSeconds(2));
        }
        assertEveryPodCountedOnce(name, true);
    }

    @Test
    void activeDeadlineSecondsFailsTheJobAndDeletesItsRunningPod() throws Exception {
        String name = uniqueName("deadline");
        run(
                FAST,
                job(name, "Never", s -> s.activeDeadlineSeconds(1L).backoffLimit(6)),
                (k, pod, n) -> k.running(pod, 0));

        JobStatus status = awaitCondition(name, JobCondition.FAILED);
        JobCondition failed = status.condition(JobCondition.FAILED);
        assertThat(failed.reason()).isEqualTo("DeadlineExceeded");
        assertThat(failed.message()).isEqualTo("Job was active longer than specified deadline");
        assertThat(Duration.between(status.startTime(), failed.lastTransitionTime()))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(nz(status.failed())).isEqualTo(1);
        assertThat(nz(status.active())).isZero();
        await().atMost(TIMEOUT).until(() -> podsOf(name).isEmpty());
        assertThat(monitor.pods()).hasSize(1);
        assertEveryPodCountedOnce(name, true);
        assertThat(controller.events(NS + "/" + name, "DeadlineExceeded")).hasSize(1);
    }

    @Test
    void suspendDeletesActivePodsWithoutCountingThemAndResumeStartsAgain() throws Exception {
        String name = uniqueName("suspend");
        AtomicBoolean podsMayFinish = new AtomicBoolean(false);
        run(FAST, job(name, "Never", s -> s.completions(2).parallelism(2).suspend(true)), (k, pod, n) -> {
            k.running(pod, 0);
            if (podsMayFinish.get()) {
                k.after(Duration.ofMillis(100), pod, () -> k.succeed(pod));
            }
        });

        JobStatus status = awaitCondition(name, JobCondition.SUSPENDED);
        assertThat(status.condition(JobCondition.SUSPENDED).reason()).isEqualTo("JobSuspended");
        assertThat(status.startTime()).isNull();
        assertThat(monitor.pods()).isEmpty();

        patchSpec(name, "{\"suspend\":false}");
        await().atMost(TIMEOUT)
                .until(() -> monitor.activeNow() == 2 && nz(live(name).status().active()) == 2);
        status = live(name).status();
        assertThat(status.condition(JobCondition.SUSPENDED).status()).isEqualTo("False");
        assertThat(status.condition(JobCondition.SUSPENDED).reason()).isEqualTo("JobResumed");
        assertThat(status.startTime()).isNotNull();

        patchSpec(name, "{\"suspend\":true}");
        await().atMost(TIMEOUT)
                .until(() -> podsOf(name).isEmpty() && live(name).status().hasTrueCondition(JobCondition.SUSPENDED));
        status = live(name).status();
        assertThat(nz(status.active())).isZero();
        assertThat(nz(status.failed()))
                .as("pods deleted by suspension are not failures")
                .isZero();

        podsMayFinish.set(true);
        patchSpec(name, "{\"suspend\":false}");
        status = awaitCondition(name, JobCondition.COMPLETE);
        assertThat(nz(status.succeeded())).isEqualTo(2);
        assertThat(nz(status.failed())).isZero();
        assertThat(monitor.pods()).hasSize(4);
        assertThat(monitor.maxActive()).isEqualTo(2);
        assertEveryPodCountedOnce(name, false);
        // Like upstream, the event is recorded before the status write: a sync from a cache that has
        // not yet seen the previous write records it again (and its write then conflicts).
        assertThat(controller.events(NS + "/" + name, "Suspended")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(controller.events(NS + "/" + name, "Resumed")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void indexedJobCompletesEveryIndexOnceAndReplacesAFailedIndex() throws Exception {
        String name = uniqueName("indexed");
        Map<String, String> envIndexByPod = new ConcurrentHashMap<>();
        AtomicBoolean indexTwoFailedOnce = new AtomicBoolean(false);
        run(
                FAST,
                job(name, "Never", s -> s.completions(4).parallelism(2).completionMode(JobSpec.INDEXED)),
                (k, pod, n) -> {
                    String index = pod.metadata().annotations().get(Job.COMPLETION_INDEX_ANNOTATION);
                    pod.spec().containers().get(0).envOrEmpty().stream()
                            .filter(e -> e.name().equals("JOB_COMPLETION_INDEX"))
                            .findFirst()
                            .ifPresent(e -> envIndexByPod.put(pod.metadata().name(), resolve(e, pod)));
                    k.running(pod, 0);
                    if (index.equals("2") && indexTwoFailedOnce.compareAndSet(false, true)) {
                        k.after(Duration.ofMillis(50), pod, () -> k.fail(pod, 1));
                    } else {
                        k.after(Duration.ofMillis(100), pod, () -> k.succeed(pod));
                    }
                });

        JobStatus status = awaitCondition(name, JobCondition.COMPLETE);
        assertThat(status.completedIndexes()).isEqualTo("0-3");
        assertThat(nz(status.succeeded())).isEqualTo(4);
        assertThat(nz(status.failed())).isEqualTo(1);
        Map<String, List<JobRunMonitor.PodHistory>> byIndex = monitor.byIndex();
        assertThat(byIndex).containsOnlyKeys("0", "1", "2", "3");
        assertThat(byIndex.get("2")).hasSize(2);
        assertThat(byIndex.get("0")).hasSize(1);
        for (JobRunMonitor.PodHistory h : monitor.pods()) {
            String index = h.annotations.get(Job.COMPLETION_INDEX_ANNOTATION);
            // The index is also in the container's environment, as a kubelet resolves it.
            assertThat(envIndexByPod.get(h.name)).isEqualTo(index);
            assertThat(h.name).startsWith(name + "-" + index + "-");
        }
        assertThat(monitor.maxActive()).isLessThanOrEqualTo(2);
        assertEveryPodCountedOnce(name, false);
    }

    /** A literal value, or the downward-API reference to the completion-index annotation. */
    private static String resolve(EnvVar env, Pod pod) {
        if (env.value() != null) {
            return env.value();
        }
        String path = env.valueFrom() == null || env.valueFrom().fieldRef() == null
                ? null
                : env.valueFrom().fieldRef().fieldPath();
        if (("metadata.annotations['" + Job.COMPLETION_INDEX_ANNOTATION + "']").equals(path)) {
            return pod.metadata().annotations().get(Job.COMPLETION_INDEX_ANNOTATION);
        }
        return "unresolvable: " + path;
    }

    @Test
    void podFailurePolicyFailJobFailsAtOnceAndIgnoreDoesNotCount() throws Exception {
        String name = uniqueName("pfp");
        PodFailurePolicy policy = new PodFailurePolicy(List.of(
                new PodFailurePolicyRule(
                        PodFailurePolicyRule.IGNORE,
                        new PodFailurePolicyOnExitCodesRequirement(
                                null, PodFailurePolicyOnExitCodesRequirement.IN, List.of(3)),
                        null),
                new PodFailurePolicyRule(
                        PodFailurePolicyRule.FAIL_JOB,
                        new PodFailurePolicyOnExitCodesRequirement(
                                FakeKubelet.CONTAINER, PodFailurePolicyOnExitCodesRequirement.IN, List.of(42)),
                        null)));
        Map<Integer, String> podByOrdinal = new ConcurrentHashMap<>();
        run(
                FAST,
                job(
                        name,
                        "Never",
                        s -> s.completions(3).parallelism(2).backoffLimit(6).podFailurePolicy(policy)),
                (k, pod, n) -> {
                    podByOrdinal.put(n, pod.metadata().name());
                    k.running(pod, 0);
                    switch (n) {
                        case 0 -> k.after(Duration.ofMillis(50), pod, () -> k.fail(pod, 3)); // ignored, replaced
                        case 2 -> k.after(Duration.ofMillis(50), pod, () -> k.fail(pod, 42)); // fails the Job
                        default -> {} // keeps running until the Job deletes it
                    }
                });

        JobStatus status = awaitCondition(name, JobCondition.FAILED);
        JobCondition failed = status.condition(JobCondition.FAILED);
        assertThat(failed.reason()).isEqualTo("PodFailurePolicy");
        assertThat(failed.message())
                .isEqualTo("Container main for pod " + NS + "/" + podByOrdinal.get(2)
                        + " failed with exit code 42 matching FailJob rule at index 1");
        assertThat(status.condition(JobCondition.FAILURE_TARGET)).isNotNull();
        assertThat(status.condition(JobCondition.FAILURE_TARGET).reason()).isEqualTo("PodFailurePolicy");
        // The exit-42 pod and the running pod the failing Job deleted; the ignored exit-3 pod is not counted.
        assertThat(nz(status.failed())).isEqualTo(2);
        assertThat(nz(status.succeeded())).isZero();
        assertThat(monitor.pods()).hasSize(3);
        await().atMost(TIMEOUT).until(() -> podsOf(name).stream()
                .noneMatch(p -> p.metadata().name().equals(podByOrdinal.get(1))));
        assertEveryPodCountedOnce(name, true);
    }
}
