package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.api.meta.WatchEvent;
import io.kplane.client.KubeClient;
import io.kplane.client.ListOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches one Job and its pods from before the Job exists and keeps their history in revision
 * order: how many pods were active at once (at every revision, so the maximum is exact), when each
 * pod appeared, finished or was deleted, and every status the Job went through. The checks at the
 * end prove the Job's counters never ran ahead of the pods that finished, so no pod counted twice.
 */
final class JobRunMonitor implements AutoCloseable {
    /** What happened to one pod, with the revisions at which it happened (0: not yet). */
    static final class PodHistory {
        final String uid;
        final String name;
        final Instant observedCreated;
        final Map<String, String> annotations;
        long succeededAt;
        long failedAt;
        long deletionStartedAt;
        long goneAt;
        Instant observedFailed;

        PodHistory(Pod pod, Instant observed) {
            this.uid = pod.metadata().uid();
            this.name = pod.metadata().name();
            this.observedCreated = observed;
            this.annotations = pod.metadata().annotations() == null
                    ? Map.of()
                    : pod.metadata().annotations();
        }

        boolean finished() {
            return succeededAt > 0 || failedAt > 0;
        }
    }

    record JobObservation(long revision, int succeeded, int failed, int active) {}

    private final Map<String, PodHistory> pods = new LinkedHashMap<>();
    private final Set<String> active = new HashSet<>();
    private final List<JobObservation> jobStatuses = new ArrayList<>();
    private int maxActive;
    private final WatchLoop<Pod> podWatch;
    private final WatchLoop<Job> jobWatch;

    private JobRunMonitor(KubeClient client, String namespace, String jobName) {
        this.podWatch = WatchLoop.start(
                client.pods().inNamespace(namespace),
                ListOptions.labelSelector(Job.JOB_NAME_LABEL + "=" + jobName),
                this::onPod,
                "pods-" + jobName);
        this.jobWatch = WatchLoop.start(
                client.jobs().inNamespace(namespace),
                ListOptions.fieldSelector("metadata.name=" + jobName),
                this::onJob,
                "job-" + jobName);
    }

    /** Start before creating the Job, so the first pod is seen. */
    static JobRunMonitor start(KubeClient client, String namespace, String jobName) {
        return new JobRunMonitor(client, namespace, jobName);
    }

    private static long revision(io.kplane.api.meta.KubeObject o) {
        return Long.parseLong(o.metadata().resourceVersion());
    }

    private synchronized void onPod(WatchEvent<Pod> event) {
        Pod pod = event.object();
        long rev = revision(pod);
        PodHistory h = pods.computeIfAbsent(pod.metadata().uid(), uid -> new PodHistory(pod, Instant.now()));
        String phase = pod.phase();
        if (PodStatus.SUCCEEDED.equals(phase) && h.succeededAt == 0) {
            h.succeededAt = rev;
        }
        if (PodStatus.FAILED.equals(phase) && h.failedAt == 0) {
            h.failedAt = rev;
            h.observedFailed = Instant.now();
        }
        if (pod.metadata().deletionTimestamp() != null && h.deletionStartedAt == 0) {
            h.deletionStartedAt = rev;
        }
        if (WatchEvent.DELETED.equals(event.type())) {
            h.goneAt = rev;
            if (h.deletionStartedAt == 0) {
                h.deletionStartedAt = rev;
            }
        }
        boolean isActive = !WatchEvent.DELETED.equals(event.type())
                && !pod.isTerminal()
                && pod.metadata().deletionTimestamp() == null;
        if (isActive) {
            active.add(h.uid);
        } else {
            active.remove(h.uid);
        }
        maxActive = Math.max(maxActive, active.size());
    }

    private synchronized void onJob(WatchEvent<Job> event) {
        JobStatus s = event.object().status();
        if (s == null || WatchEvent.DELETED.equals(event.type())) {
            return;
        }
        jobStatuses.add(
                new JobObservation(revision(event.object()), nz(s.succeeded()), nz(s.failed()), nz(s.active())));
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }

    synchronized int maxActive() {
        return maxActive;
    }

    synchronized int activeNow() {
        return active.size();
    }

    synchronized List<PodHistory> pods() {
        return List.copyOf(pods.values());
    }

    synchronized long succeededPods() {
        return pods.values().stream().filter(h -> h.succeededAt > 0).count();
    }

    synchronized long failedPods() {
        return pods.values().stream().filter(h -> h.failedAt > 0).count();
    }

    /**
     * Every status the Job went through counted no more succeeded pods than had succeeded by then,
     * and no more failed pods than had failed or been deleted unfinished by then; counters never
     * went down. {@code deletedCountAsFailed} is false when deleted pods must not count (suspend,
     * surplus deletions).
     */
    synchronized void assertCountsNeverRanAhead(boolean deletedCountAsFailed) {
        int lastSucceeded = 0;
        int lastFailed = 0;
        for (JobObservation o : jobStatuses) {
            long succeededBefore = pods.values().stream()
                    .filter(h -> h.succeededAt > 0 && h.succeededAt < o.revision())
                    .count();
            long failedBefore = pods.values().stream()
                    .filter(h -> (h.failedAt > 0 && h.failedAt < o.revision())
                            || (deletedCountAsFailed
                                    && h.succeededAt == 0
                                    && h.deletionStartedAt > 0
                                    && h.deletionStartedAt < o.revision()))
                    .count();
            assertThat(o.succeeded())
                    .as("succeeded at revision %d", o.revision())
                    .isLessThanOrEqualTo((int) succeededBefore);
            assertThat(o.failed()).as("failed at revision %d", o.revision()).isLessThanOrEqualTo((int) failedBefore);
            assertThat(o.succeeded()).as("succeeded never decreases").isGreaterThanOrEqualTo(lastSucceeded);
            assertThat(o.failed()).as("failed never decreases").isGreaterThanOrEqualTo(lastFailed);
            lastSucceeded = o.succeeded();
            lastFailed = o.failed();
        }
    }

    /** Pods per completion index, in creation order. */
    synchronized Map<String, List<PodHistory>> byIndex() {
        Map<String, List<PodHistory>> out = new HashMap<>();
        for (PodHistory h : pods.values()) {
            out.computeIfAbsent(h.annotations.get(Job.COMPLETION_INDEX_ANNOTATION), k -> new ArrayList<>())
                    .add(h);
        }
        return out;
    }

    @Override
    public void close() {
        podWatch.close();
        jobWatch.close();
    }
}
