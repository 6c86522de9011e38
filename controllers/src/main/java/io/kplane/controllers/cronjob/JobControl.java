package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import java.util.Optional;

/**
 * The API calls the CronJob controller makes (Kubernetes' jobControlInterface and
 * cjControlInterface), so the sync logic reads as a sequence of decisions.
 */
public interface JobControl {
    /** A live read, bypassing the informer cache; empty if the Job does not exist. */
    Optional<Job> getJob(String namespace, String name) throws Exception;

    /** Creates the Job; throws {@link AlreadyExistsException} if one with that name exists. */
    Job createJob(Job job) throws Exception;

    /**
     * Deletes the Job with background propagation, so the garbage collector removes its pods.
     * Returns false when the Job was already gone (a sync from a cache that has not yet seen an
     * earlier deletion), so the caller does not report the deletion twice.
     */
    boolean deleteJob(String namespace, String name) throws Exception;

    /** A live read of the CronJob. */
    Optional<CronJob> getCronJob(String namespace, String name) throws Exception;

    /** Writes the status subresource. */
    CronJob updateStatus(CronJob cronJob) throws Exception;

    final class AlreadyExistsException extends Exception {
        public AlreadyExistsException(String message) {
            super(message);
        }
    }
}
