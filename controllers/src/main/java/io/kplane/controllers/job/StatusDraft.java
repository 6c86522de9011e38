package io.kplane.controllers.job;

import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.batch.UncountedTerminatedPods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A mutable copy of a Job's status that one sync edits before writing it. */
final class StatusDraft {
    List<JobCondition> conditions;
    Instant startTime;
    Instant completionTime;
    int active;
    int succeeded;
    int failed;
    Integer terminating;
    String completedIndexes;
    String failedIndexes;
    final Set<String> uncountedSucceeded = new LinkedHashSet<>();
    final Set<String> uncountedFailed = new LinkedHashSet<>();
    Integer ready;

    static StatusDraft of(JobStatus s) {
        StatusDraft d = new StatusDraft();
        if (s == null) {
            d.conditions = new ArrayList<>();
            return d;
        }
        d.conditions = new ArrayList<>(s.conditionsOrEmpty());
        d.startTime = s.startTime();
        d.completionTime = s.completionTime();
        d.active = zero(s.active());
        d.succeeded = zero(s.succeeded());
        d.failed = zero(s.failed());
        d.terminating = s.terminating();
        d.completedIndexes = s.completedIndexes();
        d.failedIndexes = s.failedIndexes();
        if (s.uncountedTerminatedPods() != null) {
            d.uncountedSucceeded.addAll(s.uncountedTerminatedPods().succeededOrEmpty());
            d.uncountedFailed.addAll(s.uncountedTerminatedPods().failedOrEmpty());
        }
        d.ready = s.ready();
        return d;
    }

    /** The status as Kubernetes writes it: zero counters omitted, uncountedTerminatedPods always present. */
    JobStatus toStatus() {
        return new JobStatus(
                conditions.isEmpty() ? null : List.copyOf(conditions),
                startTime,
                completionTime,
                active == 0 ? null : active,
                succeeded == 0 ? null : succeeded,
                failed == 0 ? null : failed,
                terminating,
                completedIndexes == null || completedIndexes.isEmpty() ? null : completedIndexes,
                failedIndexes,
                new UncountedTerminatedPods(
                        uncountedSucceeded.isEmpty() ? null : List.copyOf(uncountedSucceeded),
                        uncountedFailed.isEmpty() ? null : List.copyOf(uncountedFailed)),
                ready);
    }

    private static int zero(Integer i) {
        return i == null ? 0 : i;
    }
}
