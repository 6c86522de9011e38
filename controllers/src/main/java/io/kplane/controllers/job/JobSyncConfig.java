package io.kplane.controllers.job;

import java.time.Duration;

/**
 * Tunables of the Job controller, with Kubernetes' values as defaults. Tests shrink the durations.
 *
 * @param podFailureBackoffBase  first delay before re-creating a pod after a failure (10 s)
 * @param podFailureBackoffMax   cap of that doubling delay. Kubernetes v1.30's code caps it at 10 minutes
 *                               ({@code MaxJobPodFailureBackOff}); we use 6 minutes because the Job
 *                               documentation and our issue promise "capped at six minutes" — the
 *                               documented behaviour is what users plan their retries around.
 * @param podEventBatchPeriod    pod events are batched for this long before a Job is synced (1 s)
 * @param maxPodCreateDeletePerSync at most this many pod creations or deletions per sync (500)
 * @param maxUncountedPods       at most this many pods are moved through uncountedTerminatedPods per sync (500)
 */
public record JobSyncConfig(
        Duration podFailureBackoffBase,
        Duration podFailureBackoffMax,
        Duration podEventBatchPeriod,
        int maxPodCreateDeletePerSync,
        int maxUncountedPods) {

    public static JobSyncConfig defaults() {
        return new JobSyncConfig(Duration.ofSeconds(10), Duration.ofMinutes(6), Duration.ofSeconds(1), 500, 500);
    }

    public JobSyncConfig withBackoff(Duration base, Duration max) {
        return new JobSyncConfig(base, max, podEventBatchPeriod, maxPodCreateDeletePerSync, maxUncountedPods);
    }

    public JobSyncConfig withPodEventBatchPeriod(Duration period) {
        return new JobSyncConfig(
                podFailureBackoffBase, podFailureBackoffMax, period, maxPodCreateDeletePerSync, maxUncountedPods);
    }
}
