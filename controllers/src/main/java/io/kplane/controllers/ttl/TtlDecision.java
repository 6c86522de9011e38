package io.kplane.controllers.ttl;

import io.kplane.api.batch.Job;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The TTL-after-finished controller's words in its lens sync records (docs/lens.md): what it saw (the
 * finish time, the TTL, when the Job expires) and what it decided: {@code expires-at} (requeued for that
 * instant), {@code deleted}, {@code not-finished} / {@code no-ttl} (nothing to do). The
 * {@code ttl_after_finished_controller_job_deletion_duration_seconds} histogram is derived from the
 * {@code deleted} records ({@link TtlControllerMetrics}).
 */
final class TtlDecision {
    static final String EXPIRES_AT = "expires-at";
    static final String DELETED = "deleted";
    static final String NOT_FINISHED = "not-finished";
    static final String NO_TTL = "no-ttl";
    static final String GONE = "gone";
    static final String CHANGED = "changed";
    /** The saw entry holding the expiry instant (RFC 3339), read back by the deletion-duration metric. */
    static final String SAW_EXPIRES_AT = "expiresAt";

    private TtlDecision() {}

    static void saw(SyncScope lens, Job job, String source) {
        if (!lens.enabled()) {
            return;
        }
        lens.object(job.uid(), job.metadata().resourceVersion()).saw("readFrom", source);
        Integer ttl = job.spec() == null ? null : job.spec().ttlSecondsAfterFinished();
        lens.saw("ttlSecondsAfterFinished", ttl == null ? "unset" : ttl);
        Optional<Instant> finished = FinishedJobTtl.finishTime(job);
        lens.saw("finishTime", finished.map(Instant::toString).orElse(job.isFinished() ? "unknown" : "not finished"));
        FinishedJobTtl.expiry(job).ifPresent(at -> lens.saw(SAW_EXPIRES_AT, at.toString()));
        if (job.metadata().deletionTimestamp() != null) {
            lens.saw("beingDeleted", true);
        }
    }

    static void notExpiring(SyncScope lens, Job job) {
        if (job.spec() == null || job.spec().ttlSecondsAfterFinished() == null) {
            lens.decided(NO_TTL, "no ttlSecondsAfterFinished");
        } else if (job.metadata().deletionTimestamp() != null) {
            lens.decided(GONE, "already being deleted");
        } else if (!job.isFinished()) {
            lens.decided(NOT_FINISHED, "the Job has no Complete or Failed condition yet");
        } else {
            lens.decided(NOT_FINISHED, "finished but its finish time is unknown: not deleting it");
        }
    }

    static void expiresAt(SyncScope lens, Job job, Duration wait) {
        lens.decided(
                EXPIRES_AT,
                FinishedJobTtl.expiry(job).map(Instant::toString).orElse("?") + " (requeued in " + wait.toMillis()
                        + " ms)");
    }

    /** How long ago the Job expired, e.g. {@code 0.120s}. */
    static String since(Clock clock, Job job) {
        return FinishedJobTtl.expiry(job)
                .map(at -> Duration.between(at, clock.now()).toMillis() / 1000.0 + "s")
                .orElse("?");
    }
}
