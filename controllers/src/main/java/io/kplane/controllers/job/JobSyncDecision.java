package io.kplane.controllers.job;

import io.kplane.api.batch.JobCondition;
import io.kplane.client.expectations.ControllerExpectations;
import io.kplane.client.lens.SyncScope;
import java.time.Duration;

/**
 * What one syncJob saw and decided, for the lens's sync record. The decision uses upstream's
 * {@code job_controller_job_syncs_total} action words: {@code pods_created} / {@code pods_deleted}
 * when manageJob (or the finish) created or deleted pods, {@code tracking} when manageJob did not run
 * (expectations not yet satisfied, or the Job is finishing) and the sync only tracked pod status,
 * {@code reconciling} otherwise. The finish (Complete/Failed and its reason) is added to the reason.
 */
final class JobSyncDecision {
    private JobSyncDecision() {}

    static void report(
            SyncScope lens,
            JobSyncState s,
            boolean satisfied,
            ControllerExpectations.Snapshot expected,
            int activeBefore,
            int activeAfter,
            int deletedByFinish,
            boolean manageRan,
            int newSucceeded,
            int newFailed,
            Duration backoffRemaining) {
        lens.saw("active", activeBefore)
                .saw("succeeded", s.succeeded)
                .saw("failed", s.failed)
                .saw("ready", s.ready)
                .saw("terminating", s.terminating)
                .saw("pods", s.pods.size())
                .saw("newSucceeded", newSucceeded)
                .saw("newFailed", newFailed)
                .saw("completionMode", s.isIndexed() ? "Indexed" : "NonIndexed")
                .saw(
                        "expectations",
                        satisfied
                                ? "satisfied"
                                : "waiting for "
                                        + (expected == null
                                                ? "?"
                                                : expected.adds() + " creations, " + expected.deletes()
                                                        + " deletions"));
        if (s.newBackoffRecord != null && s.newBackoffRecord.failuresAfterLastSuccess() > 0) {
            lens.saw("failuresAfterLastSuccess", s.newBackoffRecord.failuresAfterLastSuccess());
        }
        lens.saw("backoffRemainingMs", backoffRemaining.toMillis());
        Integer parallelism = s.job.spec().parallelism();
        Integer completions = s.job.spec().completions();
        lens.saw("parallelism", parallelism == null ? 1 : parallelism);
        if (completions != null) {
            lens.saw("completions", completions);
        }
        int created = manageRan ? Math.max(0, activeAfter - activeBefore) : 0;
        int deleted = deletedByFinish + (manageRan ? Math.max(0, activeBefore - activeAfter) : 0);
        String reason;
        String decision;
        if (created > 0) {
            decision = "pods_created";
            reason = created + " pod(s) created: " + activeBefore + " active, want " + (activeBefore + created);
        } else if (deleted > 0) {
            decision = "pods_deleted";
            reason = deleted + " active pod(s) deleted";
        } else if (!manageRan) {
            decision = "tracking";
            reason = !satisfied
                    ? "expectations not satisfied: manageJob skipped, pod status tracked"
                    : "manageJob not run: pod status tracked";
        } else {
            decision = "reconciling";
            reason = activeAfter + " active, nothing to create or delete";
        }
        if (s.manageError != null) {
            reason += " (manageJob error: " + s.manageError.getMessage() + ")";
        }
        if (s.finishedCondition != null) {
            JobCondition c = s.finishedCondition;
            reason += "; finishing: " + c.type()
                    + (c.reason() == null || c.reason().isEmpty() ? "" : " (" + c.reason() + ")");
            lens.saw("finishing", c.type());
            if (c.reason() != null && !c.reason().isEmpty()) {
                lens.saw("finishReason", c.reason());
            }
        }
        lens.decided(decision, reason);
    }
}
