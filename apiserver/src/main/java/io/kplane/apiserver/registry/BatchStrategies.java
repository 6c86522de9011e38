package io.kplane.apiserver.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.CronJobAdmission;
import io.kplane.api.admission.JobAdmission;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.apiserver.kubectl.Printers;

/**
 * batch/v1 Jobs and CronJobs ({@code registry/batch/job}, {@code registry/batch/cronjob}): status
 * cleared on create, and DELETE orphans dependents unless told otherwise (batch/v1 keeps the pre-GC
 * default).
 */
final class BatchStrategies {
    private BatchStrategies() {}

    static ResourceStrategy jobs() {
        return new Batch(ResourceTypes.JOBS, new JobAdmission(), Printers.job());
    }

    static ResourceStrategy cronJobs() {
        return new Batch(ResourceTypes.CRONJOBS, new CronJobAdmission(), Printers.cronJob());
    }

    private static final class Batch extends GenericStrategy {
        Batch(
                ResourceType type,
                io.kplane.api.admission.Admission admission,
                io.kplane.apiserver.kubectl.ResourcePrinter printer) {
            super(type, admission, printer);
        }

        @Override
        public void prepareStatusForCreate(ObjectNode object) {
            object.putObject("status");
        }

        @Override
        public String defaultPropagationPolicy() {
            return DeletionPropagation.ORPHAN;
        }
    }
}
