package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.client.lens.SyncScope;
import java.util.Optional;

/**
 * {@link JobControl} that reports each write of a CronJob sync (Job create/delete, status update) to
 * the running sync's lens record, with the resourceVersion returned or the error. Reads are not
 * reported. With the lens off, {@link SyncScope#current()} is a no-op and this only delegates.
 */
final class LensJobControl implements JobControl {
    private final JobControl delegate;

    LensJobControl(JobControl delegate) {
        this.delegate = delegate;
    }

    @Override
    public Optional<Job> getJob(String namespace, String name) throws Exception {
        return delegate.getJob(namespace, name);
    }

    @Override
    public Job createJob(Job job) throws Exception {
        SyncScope scope = SyncScope.current();
        String key = job.key();
        try {
            Job created = delegate.createJob(job);
            scope.wrote("create", "jobs", key, created.metadata().resourceVersion(), null);
            return created;
        } catch (AlreadyExistsException e) {
            scope.wrote("create", "jobs", key, null, "AlreadyExists");
            throw e;
        } catch (Exception e) {
            scope.wrote("create", "jobs", key, null, String.valueOf(e.getMessage()));
            throw e;
        }
    }

    @Override
    public boolean deleteJob(String namespace, String name) throws Exception {
        SyncScope scope = SyncScope.current();
        try {
            boolean existed = delegate.deleteJob(namespace, name);
            scope.wrote("delete", "jobs", namespace + "/" + name, null, existed ? null : "NotFound");
            return existed;
        } catch (Exception e) {
            scope.wrote("delete", "jobs", namespace + "/" + name, null, String.valueOf(e.getMessage()));
            throw e;
        }
    }

    @Override
    public Optional<CronJob> getCronJob(String namespace, String name) throws Exception {
        return delegate.getCronJob(namespace, name);
    }

    @Override
    public CronJob updateStatus(CronJob cronJob) throws Exception {
        SyncScope scope = SyncScope.current();
        String key = cronJob.key();
        try {
            CronJob written = delegate.updateStatus(cronJob);
            scope.wrote(
                    "update status",
                    "cronjobs",
                    key,
                    written == null || written.metadata() == null
                            ? null
                            : written.metadata().resourceVersion(),
                    null);
            return written;
        } catch (Exception e) {
            scope.wrote("update status", "cronjobs", key, null, String.valueOf(e.getMessage()));
            throw e;
        }
    }
}
