package io.kplane.apiserver.kubectl;

import java.util.Map;

/**
 * Descriptions {@code kubectl explain} shows, for the kinds and the fields people ask about most
 * (taken from the Kubernetes API reference). Fields without an entry are listed with their type only.
 */
final class OpenApiDescriptions {
    private static final String BATCH = "io.k8s.api.batch.v1.";
    private static final String CORE = "io.k8s.api.core.v1.";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

    private static final Map<String, String> TEXT = Map.ofEntries(
            Map.entry(BATCH + "Job", "Job represents the configuration of a single job."),
            Map.entry(
                    BATCH + "Job.apiVersion",
                    "APIVersion defines the versioned schema of this representation of an object."),
            Map.entry(
                    BATCH + "Job.kind",
                    "Kind is a string value representing the REST resource this object represents."),
            Map.entry(BATCH + "Job.metadata", "Standard object's metadata."),
            Map.entry(BATCH + "Job.spec", "Specification of the desired behavior of a job."),
            Map.entry(BATCH + "Job.status", "Current status of a job."),
            Map.entry(BATCH + "JobSpec", "JobSpec describes how the job execution will look like."),
            Map.entry(
                    BATCH + "JobSpec.parallelism",
                    "Specifies the maximum desired number of pods the job should run at " + "any given time."),
            Map.entry(
                    BATCH + "JobSpec.completions",
                    "Specifies the desired number of successfully finished pods the job "
                            + "should be run with. Setting to null means that the success of any pod signals the success of all "
                            + "pods, and allows parallelism to have any positive value."),
            Map.entry(
                    BATCH + "JobSpec.activeDeadlineSeconds",
                    "Specifies the duration in seconds relative to the "
                            + "startTime that the job may be continuously active before the system tries to terminate it."),
            Map.entry(
                    BATCH + "JobSpec.backoffLimit",
                    "Specifies the number of retries before marking this job failed. " + "Defaults to 6"),
            Map.entry(
                    BATCH + "JobSpec.selector",
                    "A label query over pods that should match the pod count. Normally, "
                            + "the system sets this field for you."),
            Map.entry(
                    BATCH + "JobSpec.template",
                    "Describes the pod that will be created when executing a job. The only "
                            + "allowed template.spec.restartPolicy values are \"Never\" or \"OnFailure\"."),
            Map.entry(
                    BATCH + "JobSpec.ttlSecondsAfterFinished",
                    "ttlSecondsAfterFinished limits the lifetime of a Job "
                            + "that has finished execution (either Complete or Failed)."),
            Map.entry(
                    BATCH + "JobSpec.completionMode",
                    "completionMode specifies how Pod completions are tracked. It can "
                            + "be `NonIndexed` (default) or `Indexed`."),
            Map.entry(
                    BATCH + "JobSpec.suspend",
                    "suspend specifies whether the Job controller should create Pods or not. "
                            + "If a Job is created with suspend set to true, no Pods are created by the Job controller. If a Job "
                            + "is suspended after creation (i.e. the flag goes from false to true), the Job controller will "
                            + "delete all active Pods associated with this Job. Users must design their workload to gracefully "
                            + "handle this. Suspending a Job will reset the StartTime field of the Job, effectively resetting "
                            + "the ActiveDeadlineSeconds timer too. Defaults to false."),
            Map.entry(BATCH + "JobSpec.podFailurePolicy", "Specifies the policy of handling failed pods."),
            Map.entry(BATCH + "JobStatus", "JobStatus represents the current state of a Job."),
            Map.entry(
                    BATCH + "JobStatus.conditions", "The latest available observations of an object's current state."),
            Map.entry(
                    BATCH + "JobStatus.startTime", "Represents time when the job controller started processing a job."),
            Map.entry(BATCH + "JobStatus.completionTime", "Represents time when the job was completed."),
            Map.entry(BATCH + "JobStatus.active", "The number of pending and running pods which are not terminating."),
            Map.entry(BATCH + "JobStatus.succeeded", "The number of pods which reached phase Succeeded."),
            Map.entry(BATCH + "JobStatus.failed", "The number of pods which reached phase Failed."),
            Map.entry(BATCH + "CronJob", "CronJob represents the configuration of a single cron job."),
            Map.entry(
                    BATCH + "CronJob.spec",
                    "Specification of the desired behavior of a cron job, including the schedule."),
            Map.entry(BATCH + "CronJob.status", "Current status of a cron job."),
            Map.entry(
                    BATCH + "CronJobSpec",
                    "CronJobSpec describes how the job execution will look like and when it will " + "actually run."),
            Map.entry(
                    BATCH + "CronJobSpec.schedule",
                    "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
            Map.entry(
                    BATCH + "CronJobSpec.timeZone",
                    "The time zone name for the given schedule, see "
                            + "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones."),
            Map.entry(
                    BATCH + "CronJobSpec.startingDeadlineSeconds",
                    "Optional deadline in seconds for starting the job "
                            + "if it misses scheduled time for any reason."),
            Map.entry(
                    BATCH + "CronJobSpec.concurrencyPolicy",
                    "Specifies how to treat concurrent executions of a Job. "
                            + "Valid values are: \"Allow\" (default), \"Forbid\" and \"Replace\"."),
            Map.entry(
                    BATCH + "CronJobSpec.suspend",
                    "This flag tells the controller to suspend subsequent executions, it "
                            + "does not apply to already started executions. Defaults to false."),
            Map.entry(
                    BATCH + "CronJobSpec.jobTemplate",
                    "Specifies the job that will be created when executing a CronJob."),
            Map.entry(
                    BATCH + "CronJobSpec.successfulJobsHistoryLimit",
                    "The number of successful finished jobs to retain."),
            Map.entry(BATCH + "CronJobSpec.failedJobsHistoryLimit", "The number of failed finished jobs to retain."),
            Map.entry(
                    CORE + "Pod",
                    "Pod is a collection of containers that can run on a host. This resource is created "
                            + "by clients and scheduled onto hosts."),
            Map.entry(CORE + "PodSpec", "PodSpec is a description of a pod."),
            Map.entry(CORE + "PodSpec.containers", "List of containers belonging to the pod."),
            Map.entry(
                    CORE + "PodSpec.restartPolicy",
                    "Restart policy for all containers within the pod. One of Always, " + "OnFailure, Never."),
            Map.entry(CORE + "Container", "A single application container that you want to run within a pod."),
            Map.entry(CORE + "Container.image", "Container image name."),
            Map.entry(CORE + "Container.command", "Entrypoint array. Not executed within a shell."),
            Map.entry(CORE + "Node", "Node is a worker node in Kubernetes."),
            Map.entry(CORE + "Namespace", "Namespace provides a scope for Names."),
            Map.entry(CORE + "Event", "Event is a report of an event somewhere in the cluster."),
            Map.entry("io.k8s.api.coordination.v1.Lease", "Lease defines a lease concept."),
            Map.entry(
                    META + "ObjectMeta",
                    "ObjectMeta is metadata that all persisted resources must have, which "
                            + "includes all objects users must create."),
            Map.entry(META + "ObjectMeta.name", "Name must be unique within a namespace."),
            Map.entry(
                    META + "ObjectMeta.labels",
                    "Map of string keys and values that can be used to organize and "
                            + "categorize (scope and select) objects."));

    private OpenApiDescriptions() {}

    static String of(String key) {
        return TEXT.get(key);
    }
}
