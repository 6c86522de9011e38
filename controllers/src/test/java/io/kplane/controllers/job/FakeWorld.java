package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobBuilder;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatus;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.ContainerState;
import io.kplane.api.core.ContainerStateTerminated;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.ContainerStatusBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.LabelSelector;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.expectations.ControllerExpectations;
import io.kplane.client.expectations.UIDTrackingExpectations;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory world for syncJob unit tests, like upstream's FakePodControl + fake clientset: a
 * Job, its pods, and a record of every write the syncer makes.
 */
final class FakeWorld {
    static final String NS = "default";
    static final String UID = "job-uid-1";

    final FakeClock clock = new FakeClock();
    final ControllerExpectations expectations = new ControllerExpectations(clock);
    final UIDTrackingExpectations finalizerExpectations = new UIDTrackingExpectations();
    final BackoffRecords backoff = new BackoffRecords();
    final List<Pod> created = Collections.synchronizedList(new ArrayList<>());
    final List<String> deleted = Collections.synchronizedList(new ArrayList<>());
    final List<String> finalizersRemoved = Collections.synchronizedList(new ArrayList<>());
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<Duration> requeues = Collections.synchronizedList(new ArrayList<>());
    final List<Job> statusWrites = new ArrayList<>();
    final List<Pod> pods = new ArrayList<>();
    final AtomicInteger podSeq = new AtomicInteger();
    int createLimit = Integer.MAX_VALUE;
    Job job;
    final ExecutorService writers = Executors.newFixedThreadPool(4);

    static Job job(int parallelism, Integer completions) {
        return job(JobSpecBuilder.builder()
                .parallelism(parallelism)
                .completions(completions)
                .backoffLimit(6)
                .completionMode(JobSpec.NON_INDEXED)
                .podReplacementPolicy(JobSpec.REPLACE_TERMINATING_OR_FAILED));
    }

    static Job job(JobSpecBuilder spec) {
        Map<String, String> labels = Map.of(Job.CONTROLLER_UID_LABEL, UID, Job.JOB_NAME_LABEL, "foobar");
        Container main =
                ContainerBuilder.builder().name("main").image("busybox").build();
        spec.selector(LabelSelector.matching(Map.of(Job.CONTROLLER_UID_LABEL, UID)))
                .template(new PodTemplateSpec(
                        ObjectMetaBuilder.builder().labels(labels).build(),
                        PodSpecBuilder.builder()
                                .containers(List.of(main))
                                .restartPolicy("Never")
                                .build()));
        if (spec.backoffLimit() == null) {
            spec.backoffLimit(6);
        }
        return JobBuilder.builder()
                .metadata(ObjectMetaBuilder.builder()
                        .namespace(NS)
                        .name("foobar")
                        .uid(UID)
                        .resourceVersion("1")
                        .generation(1L)
                        .build())
                .spec(spec.build())
                .build();
    }

    static Job onFailure(Job job) {
        return job.withSpec(job.spec()
                .withTemplate(job.spec()
                        .template()
                        .withSpec(job.spec().template().spec().withRestartPolicy("OnFailure"))));
    }

    FakeWorld with(Job job) {
        this.job = job;
        return this;
    }

    Pod pod(String phase) {
        int n = podSeq.incrementAndGet();
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .namespace(NS)
                .name("foobar-" + n)
                .uid("pod-" + n)
                .labels(job.spec().template().metadata().labels())
                .ownerReferences(List.of(OwnerReference.controllerOf(Job.API_VERSION, Job.KIND, job.metadata())))
                .finalizers(List.of(Job.TRACKING_FINALIZER))
                .creationTimestamp(clock.now().minusSeconds(100 - n))
                .build();
        Pod pod = new Pod(
                null,
                null,
                meta,
                PodSpecBuilder.builder().nodeName("node").build(),
                PodStatusBuilder.builder().phase(phase).build());
        if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
            int exit = "Failed".equals(phase) ? 1 : 0;
            pod = withExit(pod, exit);
        }
        return pod;
    }

    static Pod withExit(Pod pod, int exitCode) {
        ContainerStatus cs = ContainerStatusBuilder.builder()
                .name("main")
                .restartCount(0)
                .state(ContainerState.terminated(new ContainerStateTerminated(
                        exitCode,
                        null,
                        null,
                        null,
                        null,
                        pod.metadata().creationTimestamp().plusSeconds(1),
                        null)))
                .build();
        return pod.withStatus(pod.status().withContainerStatuses(List.of(cs)));
    }

    static Pod ready(Pod pod) {
        return pod.withStatus(pod.status()
                .withConditions(List.of(new PodCondition(PodCondition.READY, "True", null, null, null, null))));
    }

    static Pod withIndex(Pod pod, int index) {
        return pod.withMetadata(
                pod.metadata().withAnnotations(Map.of(Job.COMPLETION_INDEX_ANNOTATION, Integer.toString(index))));
    }

    static Pod withRestarts(Pod pod, int restarts) {
        return pod.withStatus(pod.status()
                .withContainerStatuses(List.of(ContainerStatusBuilder.builder()
                        .name("main")
                        .restartCount(restarts)
                        .build())));
    }

    FakeWorld add(int count, String phase) {
        for (int i = 0; i < count; i++) {
            pods.add(pod(phase));
        }
        return this;
    }

    FakeWorld add(Pod pod) {
        pods.add(pod);
        return this;
    }

    JobSyncer syncer() {
        JobSyncer.Source source = new JobSyncer.Source() {
            @Override
            public Job cachedJob(String namespace, String name) {
                return job;
            }

            @Override
            public List<Pod> candidatePods(Job candidateFor) {
                return pods;
            }

            @Override
            public Job freshJob(String namespace, String name) {
                return job;
            }
        };
        return syncer(source, j -> {
            // Like the API server: every write gets the next resourceVersion.
            String rv = j.metadata().resourceVersion();
            Job written = j.withMetadata(
                    j.metadata().withResourceVersion(rv == null ? "1" : Long.toString(Long.parseLong(rv) + 1)));
            statusWrites.add(written);
            job = written;
            return written;
        });
    }

    /** A syncer reading the Job from {@code source} and writing its status through {@code updater}. */
    JobSyncer syncer(JobSyncer.Source source, JobStatusUpdater updater) {
        PodControl control = new PodControl() {
            @Override
            public Pod create(Pod pod) {
                synchronized (created) {
                    if (created.size() >= createLimit) {
                        throw new IllegalStateException("quota exceeded");
                    }
                    Pod p = pod.withMetadata(
                            pod.metadata().withName(pod.metadata().generateName() + created.size()));
                    created.add(p);
                    return p;
                }
            }

            @Override
            public boolean delete(String namespace, String name) {
                deleted.add(name);
                return true;
            }

            @Override
            public boolean removeTrackingFinalizer(Pod pod) {
                finalizersRemoved.add(pod.metadata().name());
                return true;
            }

            @Override
            public void adopt(Pod pod, OwnerReference ref) {}

            @Override
            public void release(Pod pod, String ownerUid) {}
        };
        return new JobSyncer(
                JobSyncConfig.defaults(),
                clock,
                expectations,
                finalizerExpectations,
                backoff,
                control,
                updater,
                (j, type, reason, message) -> events.add(reason + ": " + message),
                source,
                (key, d) -> requeues.add(d),
                writers);
    }

    /** Runs one sync; returns the error it threw, if any. */
    Exception sync() {
        try {
            syncer().sync(NS + "/foobar");
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    JobStatus status() {
        return job.status() == null
                ? new JobStatus(null, null, null, null, null, null, null, null, null, null, null)
                : job.status();
    }

    int active() {
        return status().active() == null ? 0 : status().active();
    }

    int succeeded() {
        return status().succeeded() == null ? 0 : status().succeeded();
    }

    int failed() {
        return status().failed() == null ? 0 : status().failed();
    }
}
