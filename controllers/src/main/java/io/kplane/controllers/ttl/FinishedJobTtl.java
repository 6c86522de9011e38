package io.kplane.controllers.ttl;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** When a finished Job with {@code ttlSecondsAfterFinished} may be deleted (Kubernetes' ttlafterfinished utils). */
public final class FinishedJobTtl {
    private FinishedJobTtl() {}

    /** A TTL is set, the Job is Complete or Failed, and it is not already being deleted. */
    public static boolean needsCleanup(Job job) {
        return job.spec() != null
                && job.spec().ttlSecondsAfterFinished() != null
                && job.metadata().deletionTimestamp() == null
                && job.isFinished();
    }

    /**
     * The lastTransitionTime of the True Complete/Failed condition (the completionTime for a Complete
     * Job that lacks one); empty if neither is known.
     */
    public static Optional<Instant> finishTime(Job job) {
        if (job.status() == null) {
            return Optional.empty();
        }
        for (JobCondition c : job.status().conditionsOrEmpty()) {
            if ((JobCondition.COMPLETE.equals(c.type()) || JobCondition.FAILED.equals(c.type())) && c.isTrue()) {
                if (c.lastTransitionTime() != null) {
                    return Optional.of(c.lastTransitionTime());
                }
                if (JobCondition.COMPLETE.equals(c.type()) && job.status().completionTime() != null) {
                    return Optional.of(job.status().completionTime());
                }
            }
        }
        return Optional.empty();
    }

    /** When the Job expires, if it needs cleanup and its finish time is known. */
    public static Optional<Instant> expiry(Job job) {
        if (!needsCleanup(job)) {
            return Optional.empty();
        }
        long ttl = job.spec().ttlSecondsAfterFinished();
        return finishTime(job).map(t -> t.plus(Duration.ofSeconds(ttl)));
    }
}
