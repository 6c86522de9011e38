package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobStatus;

/**
 * Writes a sync's status draft through the status subresource, only when it differs from what the
 * API server has, and keeps the returned Job (with its new resourceVersion) for the next write.
 */
final class JobStatusWriter {
    private final JobStatusUpdater updater;

    JobStatusWriter(JobStatusUpdater updater) {
        this.updater = updater;
    }

    /** @return true when a write happened */
    boolean writeIfChanged(JobSyncState s) throws Exception {
        JobStatus desired = s.status.toStatus();
        JobStatus current = StatusDraft.of(s.job.status()).toStatus();
        if (desired.equals(current)) {
            return false;
        }
        Job written = updater.updateStatus(s.job.withStatus(desired));
        s.job = written == null ? s.job.withStatus(desired) : written;
        return true;
    }
}
