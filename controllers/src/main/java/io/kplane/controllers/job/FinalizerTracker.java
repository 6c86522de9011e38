package io.kplane.controllers.job;

import io.kplane.api.batch.JobCondition;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.expectations.UIDTrackingExpectations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts every finished pod exactly once (upstream's {@code trackJobStatusAndRemoveFinalizers}):
 * <ol>
 *   <li>write the UIDs of newly finished pods into {@code status.uncountedTerminatedPods};</li>
 *   <li>remove their {@code batch.kubernetes.io/job-tracking} finalizer;</li>
 *   <li>move UIDs whose pod no longer carries the finalizer from the uncounted lists into
 *       {@code succeeded}/{@code failed}, and write again.</li>
 * </ol>
 * A crash between any two steps is harmless: a UID in the uncounted lists is never added twice,
 * and a pod without the finalizer is never counted again. Once nothing is uncounted, the Job's
 * finished condition (if any) is written.
 */
final class FinalizerTracker {
    private static final Logger log = LoggerFactory.getLogger(FinalizerTracker.class);

    private final JobSyncConfig config;
    private final UIDTrackingExpectations finalizerExpectations;
    private final PodControl podControl;
    private final JobStatusWriter writer;
    private final BackoffRecords backoff;
    private final EventRecorder events;
    private final ExecutorService writers;
    private final Supplier<Instant> now;

    FinalizerTracker(
            JobSyncConfig config,
            UIDTrackingExpectations finalizerExpectations,
            PodControl podControl,
            JobStatusWriter writer,
            BackoffRecords backoff,
            EventRecorder events,
            ExecutorService writers,
            Supplier<Instant> now) {
        this.config = config;
        this.finalizerExpectations = finalizerExpectations;
        this.podControl = podControl;
        this.writer = writer;
        this.backoff = backoff;
        this.events = events;
        this.writers = writers;
        this.now = now;
    }

    void track(JobSyncState s) throws Exception {
        boolean indexed = s.isIndexed();
        Set<String> uidsWithFinalizer = new HashSet<>();
        for (Pod pod : s.pods) {
            if (JobPods.hasTrackingFinalizer(pod)) {
                uidsWithFinalizer.add(pod.metadata().uid());
            }
        }
        List<Pod> toRelease = new ArrayList<>();
        List<Integer> newSucceededIndexes = new ArrayList<>();
        boolean reachedMaxUncounted = false;
        boolean jobFailing = s.finishedCondition != null
                && !JobCondition.COMPLETE.equals(s.finishedCondition.type())
                && !JobCondition.SUCCESS_CRITERIA_MET.equals(s.finishedCondition.type());
        int added = 0;
        // upstream's podFailureCountByPolicyAction: the failure-policy action applied to each failed pod
        // handled now (also Ignore, which does not count the pod); the lens record carries it and
        // job_controller_pod_failures_handled_by_failure_policy_total is derived from it (JobControllerMetrics)
        java.util.Map<String, Integer> policyActions = new java.util.TreeMap<>();
        for (Pod pod : s.pods) {
            String uid = pod.metadata().uid();
            if (!JobPods.hasTrackingFinalizer(pod) || s.expectedRmFinalizers.contains(uid)) {
                continue; // already handled by an earlier sync
            }
            boolean considerFailed = JobPods.isFailed(pod, s.job);
            boolean succeeded = PodStatus.SUCCEEDED.equals(pod.phase());
            if (!(succeeded
                    || considerFailed
                    || s.finishedCondition != null
                    || s.job.metadata().deletionTimestamp() != null)) {
                continue; // still running: keep tracking it
            }
            toRelease.add(pod);
            int ix = IndexedCompletion.indexOf(pod);
            if (succeeded && !s.status.uncountedFailed.contains(uid)) {
                if (indexed) {
                    // The index is enough to never count a success twice.
                    if (IndexedCompletion.isValid(ix, s.completions()) && !s.prevSucceededIndexes.contains(ix)) {
                        newSucceededIndexes.add(ix);
                        added++;
                    }
                } else if (s.status.uncountedSucceeded.add(uid)) {
                    added++;
                }
            } else if (considerFailed || jobFailing) {
                // When the Job is failing, every pod that did not succeed counts as failed.
                boolean validIndex = !indexed || IndexedCompletion.isValid(ix, s.completions());
                if (!s.status.uncountedFailed.contains(uid) && validIndex) {
                    PodFailurePolicyMatcher.Match match = s.job.spec().podFailurePolicy() == null
                            ? null
                            : PodFailurePolicyMatcher.match(s.job.spec().podFailurePolicy(), pod);
                    if (match != null && match.action() != null) {
                        policyActions.merge(match.action(), 1, Integer::sum);
                    }
                    boolean counts = s.job.spec().podFailurePolicy() == null || (match != null && match.countsFailed());
                    if (counts) {
                        s.status.uncountedFailed.add(uid);
                        added++;
                    }
                }
            }
            if (added >= config.maxUncountedPods()) {
                // Keep the status small and let other Jobs have a turn; the writes requeue this Job.
                reachedMaxUncounted = true;
                break;
            }
        }
        if (!policyActions.isEmpty()) {
            io.kplane.client.lens.SyncScope.current().saw(JobControllerMetrics.SAW_POLICY_ACTIONS, policyActions);
        }
        if (indexed) {
            s.succeededIndexes.addAll(newSucceededIndexes);
            s.status.completedIndexes = IndexedCompletion.format(s.succeededIndexes);
            s.status.succeeded = s.succeededIndexes.size();
        }
        if (s.finishedCondition != null && JobCondition.FAILURE_TARGET.equals(s.finishedCondition.type())) {
            // Persist the interim condition (and its message) before any finalizer is removed; the
            // final Failed condition copies it once every pod is counted.
            List<JobCondition> withTarget = JobConditions.ensure(
                    s.status.conditions,
                    JobCondition.FAILURE_TARGET,
                    JobConditions.TRUE,
                    s.finishedCondition.reason(),
                    s.finishedCondition.message(),
                    s.finishedCondition.lastTransitionTime());
            if (withTarget != null) {
                s.status.conditions = withTarget;
            }
            s.finishedCondition = JobConditions.newCondition(
                    JobCondition.FAILED,
                    JobConditions.TRUE,
                    s.finishedCondition.reason(),
                    s.finishedCondition.message(),
                    now.get());
        }

        // Step 1: record the newly finished pods (and any other status change) before touching finalizers.
        writer.writeIfChanged(s);
        // Only now are this sync's new failures part of the status, so the back-off may remember them.
        backoff.put(s.key, s.newBackoffRecord);

        // Step 2: release the finalizers.
        Exception firstError = null;
        if (!toRelease.isEmpty()) {
            List<String> uids = toRelease.stream().map(p -> p.metadata().uid()).toList();
            finalizerExpectations.expectFinalizersRemoved(s.key, uids);
            List<CompletableFuture<Exception>> calls = new ArrayList<>(toRelease.size());
            for (Pod pod : toRelease) {
                calls.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                podControl.removeTrackingFinalizer(pod);
                                return null;
                            } catch (Exception e) {
                                finalizerExpectations.finalizerRemovalObserved(
                                        s.key, pod.metadata().uid());
                                return e;
                            }
                        },
                        writers));
            }
            for (int i = 0; i < toRelease.size(); i++) {
                Exception e = calls.get(i).join();
                if (e == null) {
                    uidsWithFinalizer.remove(toRelease.get(i).metadata().uid());
                } else if (firstError == null) {
                    firstError = e;
                    log.warn(
                            "job {}: removing the tracking finalizer of pod {} failed: {}",
                            s.key,
                            toRelease.get(i).metadata().name(),
                            e.getMessage());
                }
            }
        }

        // Step 3: count the pods whose finalizer is gone.
        countReleased(s, uidsWithFinalizer);
        boolean finished = !reachedMaxUncounted && enactFinished(s);
        writer.writeIfChanged(s);
        if (finished) {
            recordFinished(s);
        }
        if (firstError != null) {
            throw firstError;
        }
    }

    private static void countReleased(JobSyncState s, Set<String> uidsWithFinalizer) {
        int before = s.status.uncountedSucceeded.size();
        s.status.uncountedSucceeded.retainAll(uidsWithFinalizer);
        s.status.succeeded += before - s.status.uncountedSucceeded.size();
        before = s.status.uncountedFailed.size();
        s.status.uncountedFailed.retainAll(uidsWithFinalizer);
        s.status.failed += before - s.status.uncountedFailed.size();
    }

    /** Adds the finished condition once every finished pod is counted. */
    private boolean enactFinished(JobSyncState s) {
        JobCondition c = s.finishedCondition;
        if (c == null) {
            return false;
        }
        if (!s.status.uncountedSucceeded.isEmpty() || !s.status.uncountedFailed.isEmpty()) {
            log.info(
                    "job {}: {} waits for {} uncounted pods",
                    s.key,
                    c.type(),
                    s.status.uncountedSucceeded.size() + s.status.uncountedFailed.size());
            return false;
        }
        List<JobCondition> updated = JobConditions.ensure(
                s.status.conditions, c.type(), c.status(), c.reason(), c.message(), c.lastTransitionTime());
        if (updated != null) {
            s.status.conditions = updated;
        }
        if (JobCondition.COMPLETE.equals(c.type())) {
            s.status.completionTime = c.lastTransitionTime();
        }
        return true;
    }

    private void recordFinished(JobSyncState s) {
        JobCondition c = s.finishedCondition;
        if (JobCondition.COMPLETE.equals(c.type())) {
            events.event(s.job, EventType.NORMAL, "Completed", "Job completed");
            log.info("job {} completed (succeeded {}, failed {})", s.key, s.status.succeeded, s.status.failed);
        } else {
            events.event(s.job, EventType.WARNING, c.reason(), c.message());
            log.info(
                    "job {} failed: {} (succeeded {}, failed {})",
                    s.key,
                    c.reason(),
                    s.status.succeeded,
                    s.status.failed);
        }
    }
}
