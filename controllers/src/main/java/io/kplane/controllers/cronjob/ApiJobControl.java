package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import java.util.Optional;

/** {@link JobControl} over the REST client. */
public final class ApiJobControl implements JobControl {
    private final KubeClient client;

    public ApiJobControl(KubeClient client) {
        this.client = client;
    }

    @Override
    public Optional<Job> getJob(String namespace, String name) {
        return client.jobs().inNamespace(namespace).find(name);
    }

    @Override
    public Job createJob(Job job) throws AlreadyExistsException {
        try {
            return client.jobs().inNamespace(job.namespace()).create(job);
        } catch (ApiException e) {
            if (e.isAlreadyExists()) {
                throw new AlreadyExistsException(e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public boolean deleteJob(String namespace, String name) {
        try {
            client.jobs()
                    .inNamespace(namespace)
                    .delete(name, DeleteOptions.propagation(DeletionPropagation.BACKGROUND));
            return true;
        } catch (ApiException e) {
            if (!e.isNotFound()) {
                throw e;
            }
            return false;
        }
    }

    @Override
    public Optional<CronJob> getCronJob(String namespace, String name) {
        return client.cronJobs().inNamespace(namespace).find(name);
    }

    @Override
    public CronJob updateStatus(CronJob cronJob) {
        return client.cronJobs().inNamespace(cronJob.namespace()).updateStatus(cronJob);
    }
}
