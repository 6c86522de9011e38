package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.ContainerState;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.ContainerStatusBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.json.Json;
import io.kplane.api.meta.WatchEvent;
import io.kplane.api.patch.PatchType;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stands in for the kubelet in Job controller tests: it watches one Job's pods and, for each new
 * one, runs a {@link Script} that reports statuses through the pods' {@code status} subresource
 * (phase, container state, exit code, finish time, restart count), as a node would.
 */
final class FakeKubelet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FakeKubelet.class);
    static final String CONTAINER = "main";

    /** What the "node" does with one new pod; {@code ordinal} counts the Job's pods from 0. */
    @FunctionalInterface
    interface Script {
        void run(FakeKubelet kubelet, Pod pod, int ordinal) throws Exception;
    }

    private final ResourceClient<Pod> pods;
    private final Script script;
    private final ScheduledExecutorService runner;
    private final Map<String, Instant> finishedAt = new ConcurrentHashMap<>();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicInteger ordinal = new AtomicInteger();
    private final WatchLoop<Pod> watch;

    private FakeKubelet(KubeClient client, String namespace, String jobName, Script script, int threads) {
        this.pods = client.pods().inNamespace(namespace);
        this.script = script;
        this.runner = Executors.newScheduledThreadPool(threads, DaemonThreads.named("fake-kubelet-" + jobName));
        this.watch = WatchLoop.start(
                pods,
                ListOptions.labelSelector(Job.JOB_NAME_LABEL + "=" + jobName),
                this::onEvent,
                "kubelet-" + jobName);
    }

    static FakeKubelet start(KubeClient client, String namespace, String jobName, Script script) {
        return new FakeKubelet(client, namespace, jobName, script, 4);
    }

    static FakeKubelet start(KubeClient client, String namespace, String jobName, Script script, int threads) {
        return new FakeKubelet(client, namespace, jobName, script, threads);
    }

    private void onEvent(WatchEvent<Pod> event) {
        Pod pod = event.object();
        if (WatchEvent.DELETED.equals(event.type())
                || pod.metadata().deletionTimestamp() != null
                || !seen.add(pod.metadata().uid())) {
            return;
        }
        int n = ordinal.getAndIncrement();
        runner.execute(() -> guarded(pod, () -> script.run(this, pod, n)));
    }

    /** A step the pod takes later, as a container that runs for {@code delay} would. */
    void after(Duration delay, Pod pod, Step step) {
        runner.schedule(() -> guarded(pod, step), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private static void guarded(Pod pod, Step step) {
        try {
            step.run();
        } catch (ApiException e) {
            if (!e.isNotFound()) {
                log.warn("fake kubelet: pod {}: {}", pod.metadata().name(), e.getMessage());
            }
        } catch (Exception e) {
            log.warn("fake kubelet: pod {}: {}", pod.metadata().name(), e.toString());
        }
    }

    /** When this kubelet reported the pod's container finished (null if it did not). */
    Instant finishedAt(String podUid) {
        return finishedAt.get(podUid);
    }

    /** Pending → Running with a ready container that has restarted {@code restarts} times. */
    void running(Pod pod, int restarts) {
        Instant now = Instant.now();
        ContainerStatus cs = ContainerStatusBuilder.builder()
                .name(CONTAINER)
                .ready(true)
                .started(true)
                .restartCount(restarts)
                .image("busybox")
                .state(ContainerState.running(now))
                .lastState(restarts == 0 ? null : ContainerState.terminated(terminated(1, now)))
                .build();
        report(
                pod,
                PodStatusBuilder.builder()
                        .phase(PodStatus.RUNNING)
                        .startTime(now)
                        .conditions(List.of(new PodCondition(PodCondition.READY, "True", null, now, null, null)))
                        .containerStatuses(List.of(cs))
                        .build());
    }

    void succeed(Pod pod) {
        finish(pod, PodStatus.SUCCEEDED, 0);
    }

    void fail(Pod pod, int exitCode) {
        finish(pod, PodStatus.FAILED, exitCode);
    }

    private void finish(Pod pod, String phase, int exitCode) {
        Instant now = Instant.now();
        finishedAt.put(pod.metadata().uid(), now);
        ContainerStatus cs = ContainerStatusBuilder.builder()
                .name(CONTAINER)
                .ready(false)
                .started(false)
                .restartCount(0)
                .image("busybox")
                .state(ContainerState.terminated(terminated(exitCode, now)))
                .build();
        report(
                pod,
                PodStatusBuilder.builder()
                        .phase(phase)
                        .startTime(now)
                        .conditions(
                                List.of(new PodCondition(PodCondition.READY, "False", null, now, "PodCompleted", null)))
                        .containerStatuses(List.of(cs))
                        .build());
    }

    private static ContainerStateTerminated terminated(int exitCode, Instant at) {
        return new ContainerStateTerminated(exitCode, null, exitCode == 0 ? "Completed" : "Error", null, at, at, null);
    }

    /** A merge patch of the status subresource: no resourceVersion, so the controller's finalizer edits never conflict. */
    private void report(Pod pod, PodStatus status) {
        try {
            pods.patchStatus(
                    pod.metadata().name(), PatchType.MERGE, Json.mapper().writeValueAsString(Map.of("status", status)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        watch.close();
        runner.shutdownNow();
    }
}
