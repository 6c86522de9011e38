package io.kplane.controllers.ttl;

import io.kplane.client.lens.Lens;
import io.kplane.client.lens.LensListener;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncSummary;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Upstream's {@code ttl_after_finished_controller_job_deletion_duration_seconds} (pkg/controller/ttlafterfinished/metrics):
 * the time from the instant a Job became eligible for deletion to its successful delete, buckets
 * 0.1 s × 2^n (n = 0..13) as upstream. Derived from the lens's {@code deleted} sync records (their
 * {@code saw.expiresAt} and the record's time), not a second bookkeeping; off with {@code --lens=false}.
 */
final class TtlControllerMetrics implements LensListener {
    static final String NAME = "ttl_after_finished_controller_job_deletion_duration_seconds";
    private static final double[] BUCKETS = new double[14];

    static {
        for (int i = 0; i < BUCKETS.length; i++) {
            BUCKETS[i] = 0.1 * Math.pow(2, i);
        }
    }

    private final DistributionSummary deletionDuration;

    private TtlControllerMetrics(MeterRegistry registry) {
        this.deletionDuration = DistributionSummary.builder(NAME)
                .description("The time it took to delete the job since it became eligible for deletion")
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    static void bind(Lens lens, MeterRegistry registry) {
        if (lens instanceof LensRecorder recorder && registry != null) {
            recorder.addListener(new TtlControllerMetrics(registry));
        }
    }

    @Override
    public void recorded(LensRecord record) {
        SyncSummary sync = record.sync();
        if (sync == null
                || !TtlAfterFinishedController.LENS_NAME.equals(record.controller())
                || sync.error() != null
                || sync.decision() == null
                || !sync.decision().contains(TtlDecision.DELETED)) {
            return;
        }
        boolean deleteSucceeded =
                sync.writes().stream().anyMatch(w -> w.verb().startsWith("delete") && w.error() == null);
        Object expiresAt = sync.saw().get(TtlDecision.SAW_EXPIRES_AT);
        if (!deleteSucceeded || expiresAt == null || record.time() == null) {
            return;
        }
        try {
            Duration late = Duration.between(Instant.parse(expiresAt.toString()), record.time());
            deletionDuration.record(Math.max(0, late.toNanos() / 1e9));
        } catch (DateTimeParseException e) {
            // not ours to fail on: the record's shape is checked by the tests
        }
    }
}
