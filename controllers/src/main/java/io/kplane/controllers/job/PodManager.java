package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.expectations.ControllerExpectations;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * upstream's {@code manageJob}: brings the number of active pods to what the Job wants, creating
 * pods in slow-start batches (1, 2, 4, …; a batch with a failure stops the rest) and deleting the
 * cheapest surplus pods first. Creations and deletions never happen in the same sync.
 */
final class PodManager {
    private static final Logger log = LoggerFactory.getLogger(PodManager.class);

    private final JobSyncConfig config;
    private final Clock clock;
    private final ControllerExpectations expectations;
    private final PodControl podControl;
    private final EventRecorder events;
    private final ExecutorService writers;
    private final BiConsumer<String, Duration> requeue;

    PodManager(
            JobSyncConfig config,
            Clock clock,
            ControllerExpectations expectations,
            PodControl podControl,
            EventRecorder events,
            ExecutorService writers,
            BiConsumer<String, Duration> requeue) {
        this.config = config;
        this.clock = clock;
        this.expectations = expectations;
        this.podControl = podControl;
        this.events = events;
        this.writers = writers;
        this.requeue = requeue;
    }

    /**
     * Returns the number of active pods after this sync's creations/deletions; the first API error,
     * if any, is left in {@code s.manageError} (the sync still writes the status it reached).
     */
    int manage(JobSyncState s) {
        Job job = s.job;
        int active = s.activePods.size();
        int parallelism = job.spec().parallelism() == null ? 1 : job.spec().parallelism();

        if (job.spec().isSuspended()) {
            List<Pod> toDelete = activePodsForRemoval(s, s.activePods, active);
            expectations.expectDeletions(s.key, toDelete.size());
            DeleteResult removed = deleteJobPods(s, toDelete);
            s.terminating += removed.deleted;
            s.ready -= removed.deletedReady;
            s.manageError = removed.firstError;
            return active - removed.deleted;
        }

        int wantActive;
        if (job.spec().completions() == null) {
            // Work queue: once one pod succeeded, let the running ones finish but start no more.
            wantActive = s.succeeded > 0 ? active : parallelism;
        } else {
            wantActive = Math.max(0, Math.min(job.spec().completions() - s.succeeded, parallelism));
        }

        int rmAtLeast = Math.max(0, active - wantActive);
        List<Pod> toDelete = activePodsForRemoval(s, s.activePods, rmAtLeast);
        if (toDelete.size() > config.maxPodCreateDeletePerSync()) {
            toDelete = toDelete.subList(0, config.maxPodCreateDeletePerSync());
        }
        if (!toDelete.isEmpty()) {
            expectations.expectDeletions(s.key, toDelete.size());
            log.info("job {}: too many active pods ({} > {}), deleting {}", s.key, active, wantActive, toDelete.size());
            DeleteResult removed = deleteJobPods(s, toDelete);
            s.terminating += removed.deleted;
            s.ready -= removed.deletedReady;
            s.manageError = removed.firstError;
            return active - removed.deleted;
        }

        int terminatingToWaitFor = JobPods.onlyReplaceFailedPods(job) ? s.terminating : 0;
        int diff = wantActive - terminatingToWaitFor - active;
        if (diff <= 0) {
            return active;
        }
        Duration wait = s.newBackoffRecord.remaining(
                clock.now(), config.podFailureBackoffBase(), config.podFailureBackoffMax());
        if (!wait.isZero() && !wait.isNegative()) {
            log.info(
                    "job {}: pod creation backs off for {} after {} failures",
                    s.key,
                    wait,
                    s.newBackoffRecord.failuresAfterLastSuccess());
            // upstream's enqueueSyncJobWithDelay: never sooner than the batch period. (The
            // activeDeadlineSeconds requeue in JobSyncer is upstream's plain AddAfter, not clamped.)
            requeue.accept(
                    s.key, wait.compareTo(config.podEventBatchPeriod()) < 0 ? config.podEventBatchPeriod() : wait);
            // Upstream reports 0 active here; that only feeds this sync's status, which the requeue corrects.
            return active;
        }
        diff = Math.min(diff, config.maxPodCreateDeletePerSync());
        List<Integer> indexes = null;
        if (s.isIndexed()) {
            indexes = IndexedCompletion.firstPendingIndexes(s.activePods, s.succeededIndexes, diff, s.completions());
            diff = indexes.size();
            if (diff == 0) {
                return active;
            }
        }
        return active + createPods(s, diff, indexes);
    }

    /** Slow start: batches of 1, 2, 4, … until all are created or a batch had a failure. */
    private int createPods(JobSyncState s, int diff, List<Integer> indexes) {
        expectations.expectCreations(s.key, diff);
        log.info("job {}: creating {} pods", s.key, diff);
        int created = 0;
        int next = 0;
        Exception firstError = null;
        int remaining = diff;
        for (int batch = Math.min(remaining, 1); remaining > 0; batch = Math.min(2 * batch, remaining)) {
            List<CompletableFuture<Exception>> calls = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                int index = indexes == null ? IndexedCompletion.UNKNOWN : indexes.get(next);
                next++;
                Pod pod = PodTemplates.newPod(s.job, index);
                calls.add(CompletableFuture.supplyAsync(() -> createOne(s, pod), writers));
            }
            int failures = 0;
            for (CompletableFuture<Exception> call : calls) {
                Exception e = call.join();
                if (e == null) {
                    created++;
                } else {
                    failures++;
                    if (firstError == null) {
                        firstError = e;
                    }
                }
            }
            remaining -= batch;
            if (failures > 0) {
                if (remaining > 0) {
                    log.info("job {}: slow-start failure, skipping {} pod creations", s.key, remaining);
                    expectations.lowerExpectations(s.key, remaining, 0);
                }
                break;
            }
        }
        s.manageError = firstError;
        return created;
    }

    private Exception createOne(JobSyncState s, Pod pod) {
        try {
            Pod created = podControl.create(pod);
            events.event(
                    s.job,
                    EventType.NORMAL,
                    "SuccessfulCreate",
                    "Created pod: " + created.metadata().name());
            return null;
        } catch (Exception e) {
            // The informer will never see this pod: stop expecting it.
            expectations.creationObserved(s.key);
            events.event(s.job, EventType.WARNING, "FailedCreate", "Error creating: " + e.getMessage());
            log.warn("job {}: creating a pod failed: {}", s.key, e.getMessage());
            return e;
        }
    }

    /**
     * Which active pods to remove: for Indexed Jobs first those with an invalid or duplicated index
     * (keeping the most advanced pod of each index), then the cheapest in {@link ActivePodRanking} order.
     */
    static List<Pod> activePodsForRemoval(JobSyncState s, List<Pod> pods, int rmAtLeast) {
        List<Pod> rm = new ArrayList<>();
        List<Pod> left = new ArrayList<>();
        if (s.isIndexed()) {
            int completions = s.completions();
            java.util.Map<Integer, List<Pod>> byIndex = new java.util.TreeMap<>();
            for (Pod pod : pods) {
                int ix = IndexedCompletion.indexOf(pod);
                if (!IndexedCompletion.isValid(ix, completions)) {
                    rm.add(pod);
                } else {
                    byIndex.computeIfAbsent(ix, k -> new ArrayList<>()).add(pod);
                }
            }
            for (List<Pod> same : byIndex.values()) {
                List<Pod> sorted = ActivePodRanking.sortedForDeletion(same);
                rm.addAll(sorted.subList(0, sorted.size() - 1));
                left.add(sorted.get(sorted.size() - 1));
            }
        } else {
            left.addAll(pods);
        }
        if (rm.size() < rmAtLeast) {
            List<Pod> sorted = ActivePodRanking.sortedForDeletion(left);
            rm.addAll(sorted.subList(0, Math.min(sorted.size(), rmAtLeast - rm.size())));
        }
        return rm;
    }

    /** Deletes pods the Job no longer wants; their finalizer goes first so they never count as failed. */
    private DeleteResult deleteJobPods(JobSyncState s, List<Pod> pods) {
        return deleteAll(s, pods, true);
    }

    /**
     * Deletes the active pods of a Job that failed, keeping their finalizers: the status tracking
     * then counts them as failed before it releases them.
     */
    DeleteResult deleteActivePods(JobSyncState s, List<Pod> pods) {
        return deleteAll(s, pods, false);
    }

    private DeleteResult deleteAll(JobSyncState s, List<Pod> pods, boolean removeFinalizerFirst) {
        List<CompletableFuture<Exception>> calls = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            calls.add(CompletableFuture.supplyAsync(() -> deleteOne(s, pod, removeFinalizerFirst), writers));
        }
        DeleteResult result = new DeleteResult();
        for (int i = 0; i < pods.size(); i++) {
            Exception e = calls.get(i).join();
            if (e == null) {
                result.deleted++;
                if (pods.get(i).isReady()) {
                    result.deletedReady++;
                }
            } else if (result.firstError == null) {
                result.firstError = e;
            }
        }
        return result;
    }

    private Exception deleteOne(JobSyncState s, Pod pod, boolean expectationTracked) {
        String name = pod.metadata().name();
        try {
            if (expectationTracked && JobPods.hasTrackingFinalizer(pod)) {
                podControl.removeTrackingFinalizer(pod);
            }
            boolean existed = podControl.delete(pod.metadata().namespace(), name);
            if (!existed && expectationTracked) {
                expectations.deletionObserved(s.key);
            }
            events.event(s.job, EventType.NORMAL, "SuccessfulDelete", "Deleted pod: " + name);
            return null;
        } catch (Exception e) {
            if (expectationTracked) {
                expectations.deletionObserved(s.key);
            }
            events.event(s.job, EventType.WARNING, "FailedDelete", "Error deleting: " + e.getMessage());
            log.warn("job {}: deleting pod {} failed: {}", s.key, name, e.getMessage());
            return e;
        }
    }

    static final class DeleteResult {
        int deleted;
        int deletedReady;
        Exception firstError;
    }

    static TreeSet<Integer> noIndexes() {
        return new TreeSet<>();
    }
}
