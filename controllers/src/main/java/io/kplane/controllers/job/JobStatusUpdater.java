package io.kplane.controllers.job;

import io.kplane.api.batch.Job;

/** Writes a Job's status subresource (with the Job's resourceVersion: a stale cache gets a conflict). */
@FunctionalInterface
public interface JobStatusUpdater {
    Job updateStatus(Job job) throws Exception;
}
