package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.core.Pod;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What one sync of one Job knows and decides (upstream's {@code syncJobCtx}). */
final class JobSyncState {
    final String key;
    /** The Job as last read or written: its resourceVersion is what the next status write carries. */
    Job job;

    final StatusDraft status;
    final List<Pod> pods;
    final List<Pod> activePods;
    final Set<String> expectedRmFinalizers;
    /** Uncounted UIDs as read at the start of the sync. */
    final Set<String> uncountedSucceededAtStart;

    final Set<String> uncountedFailedAtStart;
    int ready;
    int terminating;
    int succeeded;
    int failed;
    /** Complete / Failed / FailureTarget to reach once every finished pod is counted. */
    JobCondition finishedCondition;

    BackoffRecords.Record newBackoffRecord;
    /** The first pod create/delete error of this sync: reported after the status is written. */
    Exception manageError;

    TreeSet<Integer> prevSucceededIndexes;
    TreeSet<Integer> succeededIndexes;

    JobSyncState(String key, Job job, List<Pod> pods, List<Pod> activePods, Set<String> expectedRmFinalizers) {
        this.key = key;
        this.job = job;
        this.status = StatusDraft.of(job.status());
        this.pods = pods;
        this.activePods = activePods;
        this.expectedRmFinalizers = expectedRmFinalizers;
        this.uncountedSucceededAtStart = Set.copyOf(status.uncountedSucceeded);
        this.uncountedFailedAtStart = Set.copyOf(status.uncountedFailed);
    }

    Job jobWithStatus() {
        return job.withStatus(status.toStatus());
    }

    boolean isIndexed() {
        return job.spec().isIndexed() && job.spec().completions() != null;
    }

    int completions() {
        return job.spec().completions();
    }
}
