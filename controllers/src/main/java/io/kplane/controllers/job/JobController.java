package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.api.meta.OwnerReference;
import io.kplane.api.selector.LabelQuery;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Result;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.expectations.ControllerExpectations;
import io.kplane.client.expectations.UIDTrackingExpectations;
import io.kplane.client.informer.Indexers;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedIndexInformer;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.lens.SyncScopes;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import io.kplane.controllers.runtime.ControllerComponent;
import io.kplane.controllers.runtime.ControllerContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job controller's wiring: Job and Pod informers whose handlers only enqueue keys (Job spec
 * changes at once, pod events and Job status changes batched for {@code podEventBatchPeriod}),
 * a worker pool running {@link JobSyncer#sync}, and a second queue that removes the tracking
 * finalizer from pods whose Job is gone or finished.
 */
public final class JobController implements ControllerComponent.Running {
    private static final Logger log = LoggerFactory.getLogger(JobController.class);

    private final JobSyncConfig config;
    private final Clock clock;
    private final SharedIndexInformer<Job> jobs;
    private final SharedIndexInformer<Pod> pods;
    private final RateLimitingQueue<String> queue;
    private final RateLimitingQueue<String> orphanQueue;
    private final PodEventBatching podEvents;
    private final ControllerExpectations expectations;
    private final UIDTrackingExpectations finalizerExpectations;
    private final PodControl podControl;
    private final JobSyncer syncer;
    private final ExecutorService writers;
    private final Controller workers;
    private final Controller orphanWorkers;

    public JobController(ControllerContext ctx, JobSyncConfig config) {
        this.config = config;
        this.clock = ctx.clock();
        KubeClient client = ctx.client();
        this.jobs = ctx.informers().informerFor(Job.class);
        this.pods = ctx.informers().informerFor(Pod.class);
        this.queue = RateLimitingQueue.create(clock, ctx.lens(), "job");
        this.orphanQueue = RateLimitingQueue.create(clock, ctx.lens(), "job_orphan_pod");
        this.podEvents = new PodEventBatching(config.podEventBatchPeriod(), clock, queue);
        this.expectations = new ControllerExpectations(clock);
        this.finalizerExpectations = new UIDTrackingExpectations();
        boolean lensOn = ctx.lens().enabled();
        this.podControl = lensOn ? new LensPodControl(new ApiPodControl(client)) : new ApiPodControl(client);
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(8, 4 * ctx.workers()), DaemonThreads.named("job-controller-api"));
        // with the lens on, pod writes made on these threads join the sync record that asked for them
        this.writers = lensOn ? SyncScopes.propagating(pool) : pool;
        if (lensOn) {
            expectations.lens(ctx.lens(), "job");
            JobControllerMetrics.bind(ctx.lens(), ctx.metrics());
        }
        JobSyncer.Source source = new JobSyncer.Source() {
            @Override
            public Job cachedJob(String namespace, String name) {
                return jobs.lister().get(namespace, name).orElse(null);
            }

            @Override
            public List<Pod> candidatePods(Job job) {
                return JobController.this.candidatePods(job);
            }

            @Override
            public Job freshJob(String namespace, String name) {
                return client.jobs().inNamespace(namespace).find(name).orElse(null);
            }
        };
        EventRecorder events = lensOn
                ? (job, type, reason, message) -> {
                    ctx.events().event(job, type, reason, message);
                    SyncScope.current().event(type, reason, message);
                }
                : ctx.events();
        JobStatusUpdater statusUpdater =
                job -> client.jobs().inNamespace(job.metadata().namespace()).updateStatus(job);
        if (lensOn) {
            JobStatusUpdater plain = statusUpdater;
            statusUpdater = job -> {
                String key = job.key();
                try {
                    Job written = plain.updateStatus(job);
                    SyncScope.current()
                            .wrote(
                                    "update status",
                                    "jobs",
                                    key,
                                    written.metadata().resourceVersion(),
                                    null);
                    return written;
                } catch (Exception e) {
                    SyncScope.current().wrote("update status", "jobs", key, null, e.getMessage());
                    throw e;
                }
            };
        }
        this.syncer = new JobSyncer(
                config,
                clock,
                expectations,
                finalizerExpectations,
                new BackoffRecords(),
                podControl,
                statusUpdater,
                events,
                source,
                queue::addAfter, // a back-off requeue is never shorter than the batch period: PodManager
                writers);
        this.workers = Controller.builder()
                .name("job-controller")
                .workers(ctx.workers())
                .queue(queue)
                .lens(ctx.lens(), "job", "job")
                .reconciler(key -> {
                    syncer.sync(key);
                    return Result.done();
                })
                .build();
        this.orphanWorkers = Controller.builder()
                .name("job-orphan-pods")
                .workers(1)
                .queue(orphanQueue)
                .lens(ctx.lens(), "job_orphan_pod", "job_orphan_pod")
                .reconciler(key -> {
                    syncOrphanPod(key);
                    return Result.done();
                })
                .build();
        jobs.addEventHandler(new JobHandler());
        pods.addEventHandler(new PodHandler());
        if (ctx.metrics() != null) {
            pods.addEventHandler(new TerminatedPodsTrackingFinalizerMetric(ctx.metrics()));
        }
    }

    @Override
    public void startWorkers() {
        workers.start();
        orphanWorkers.start();
    }

    @Override
    public void close() {
        try {
            workers.stop(Duration.ofSeconds(10));
            orphanWorkers.stop(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writers.shutdown();
        try {
            writers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void enqueueNow(Job job) {
        queue.add(job.key());
    }

    private void enqueueBatched(Job job) {
        queue.addAfter(job.key(), config.podEventBatchPeriod());
    }

    private void enqueueOrphan(Pod pod) {
        orphanQueue.add(pod.key());
    }

    /**
     * The pods a sync must look at: those controlled by the Job's UID and those carrying one label its
     * selector requires (the controller-uid label when it has one), both from the cache's indexes.
     * Upstream lists the whole namespace on every sync; with thousands of finished pods around, the
     * indexes keep a sync's cost proportional to the Job's own pods. A selector without matchLabels
     * falls back to the namespace.
     */
    private List<Pod> candidatePods(Job job) {
        String namespace = job.metadata().namespace();
        Map<String, String> required =
                job.spec().selector() == null ? null : job.spec().selector().matchLabels();
        if (required == null || required.isEmpty()) {
            return pods.indexer().byIndex(Indexers.NAMESPACE, namespace);
        }
        String label = required.containsKey(Job.CONTROLLER_UID_LABEL)
                ? Job.CONTROLLER_UID_LABEL
                : required.keySet().iterator().next();
        Map<String, Pod> candidates = new LinkedHashMap<>();
        for (Pod pod : pods.lister().namespace(namespace).byIndex(Indexers.LABEL, label + "=" + required.get(label))) {
            candidates.put(pod.metadata().name(), pod);
        }
        for (Pod pod : pods.lister().namespace(namespace).ownedBy(job.metadata().uid())) {
            candidates.putIfAbsent(pod.metadata().name(), pod);
        }
        return new ArrayList<>(candidates.values());
    }

    /** The cached Job a controller reference points at, or null (another kind, absent, or another UID). */
    private Job resolve(String namespace, OwnerReference ref) {
        if (ref == null || !Job.KIND.equals(ref.kind())) {
            return null;
        }
        Job job = jobs.lister().get(namespace, ref.name()).orElse(null);
        if (job == null || !Objects.equals(job.metadata().uid(), ref.uid())) {
            return null;
        }
        return job;
    }

    private void enqueueMatchingJobs(Pod pod) {
        for (Job job : jobs.lister().namespace(pod.metadata().namespace()).list()) {
            if (job.spec().selector() != null
                    && LabelQuery.from(job.spec().selector())
                            .matches(pod.metadata().labelsOrEmpty())) {
                enqueueBatched(job);
            }
        }
    }

    /** Removes the finalizers of this Job's pods (the Job is finished or gone: no sync will). */
    private void cleanupPodFinalizers(Job job) {
        for (Pod pod : pods.lister().ownedBy(job.metadata().uid())) {
            if (JobPods.hasTrackingFinalizer(pod)) {
                enqueueOrphan(pod);
            }
        }
    }

    private void syncOrphanPod(String key) throws Exception {
        ObjectKeys.Key k = ObjectKeys.split(key);
        Pod pod = pods.lister().get(k.namespace(), k.name()).orElse(null);
        if (pod == null || !JobPods.hasTrackingFinalizer(pod)) {
            return;
        }
        OwnerReference ref = pod.metadata().controllerRef();
        if (ref != null) {
            if (!Job.KIND.equals(ref.kind()) || !Job.API_VERSION.equals(ref.apiVersion())) {
                return; // controlled by something else: not ours to touch
            }
            Job job = resolve(pod.metadata().namespace(), ref);
            if (job != null
                    && job.spec().managedBy() != null
                    && !io.kplane.api.batch.JobSpec.MANAGED_BY_JOB_CONTROLLER.equals(
                            job.spec().managedBy())) {
                return;
            }
            if (job != null && !job.isFinished()) {
                return; // its Job will count it
            }
        }
        try {
            podControl.removeTrackingFinalizer(pod);
            log.info("removed the tracking finalizer of orphan pod {}", key);
        } catch (ApiException e) {
            if (!e.isNotFound()) {
                throw e;
            }
        }
    }

    private final class JobHandler implements ResourceEventHandler<Job> {
        @Override
        public void onAdd(Job job, boolean initial) {
            enqueueNow(job);
        }

        @Override
        public void onUpdate(Job old, Job cur) {
            if (Objects.equals(old.metadata().generation(), cur.metadata().generation())
                    && Objects.equals(
                            old.metadata().deletionTimestamp(), cur.metadata().deletionTimestamp())) {
                enqueueBatched(cur); // a status change, typically our own write
            } else {
                enqueueNow(cur);
            }
            if (cur.isFinished()) {
                podEvents.forget(cur.key());
                cleanupPodFinalizers(cur);
            }
            Long ads = cur.spec().activeDeadlineSeconds();
            if (cur.status() != null
                    && cur.status().startTime() != null
                    && ads != null
                    && !ads.equals(old.spec().activeDeadlineSeconds())) {
                Duration left = Duration.ofSeconds(ads)
                        .minus(Duration.between(cur.status().startTime(), clock.now()));
                queue.addAfter(cur.key(), left);
            }
        }

        @Override
        public void onDelete(Job job, boolean finalStateUnknown) {
            podEvents.forget(job.key());
            enqueueNow(job);
            cleanupPodFinalizers(job);
        }
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod, boolean initial) {
            if (pod.metadata().deletionTimestamp() != null) {
                // A restarted controller may see a pod already being deleted: not a creation.
                podDeleted(pod, false);
                return;
            }
            OwnerReference ref = pod.metadata().controllerRef();
            if (ref != null) {
                Job job = resolve(pod.metadata().namespace(), ref);
                if (job == null) {
                    if (JobPods.hasTrackingFinalizer(pod) && Job.KIND.equals(ref.kind())) {
                        enqueueOrphan(pod);
                    }
                    return;
                }
                expectations.creationObserved(job.key());
                enqueueBatched(job);
                return;
            }
            if (JobPods.hasTrackingFinalizer(pod)) {
                enqueueOrphan(pod);
            }
            enqueueMatchingJobs(pod);
        }

        @Override
        public void onUpdate(Pod old, Pod cur) {
            if (Objects.equals(old.metadata().resourceVersion(), cur.metadata().resourceVersion())) {
                return; // periodic resync: nothing changed
            }
            if (cur.metadata().deletionTimestamp() != null) {
                podDeleted(cur, false);
                return;
            }
            boolean finalizerRemoved = !JobPods.hasTrackingFinalizer(cur);
            OwnerReference curRef = cur.metadata().controllerRef();
            OwnerReference oldRef = old.metadata().controllerRef();
            boolean refChanged = !Objects.equals(curRef, oldRef);
            if (refChanged && oldRef != null) {
                Job oldJob = resolve(old.metadata().namespace(), oldRef);
                if (oldJob != null) {
                    if (finalizerRemoved) {
                        finalizerExpectations.finalizerRemovalObserved(
                                oldJob.key(), cur.metadata().uid());
                    }
                    enqueueBatched(oldJob);
                }
            }
            if (curRef != null) {
                Job job = resolve(cur.metadata().namespace(), curRef);
                if (job == null) {
                    if (JobPods.hasTrackingFinalizer(cur) && Job.KIND.equals(curRef.kind())) {
                        enqueueOrphan(cur);
                    }
                    return;
                }
                if (finalizerRemoved) {
                    finalizerExpectations.finalizerRemovalObserved(
                            job.key(), cur.metadata().uid());
                }
                if (JobPods.isTerminal(cur) && !JobPods.isTerminal(old)) {
                    podEvents.podFinished(job.key()); // see PodEventBatching: a lone finish is synced at once
                } else {
                    enqueueBatched(job);
                }
                return;
            }
            if (JobPods.hasTrackingFinalizer(cur)) {
                enqueueOrphan(cur);
            }
            if (refChanged
                    || !Objects.equals(old.metadata().labels(), cur.metadata().labels())) {
                enqueueMatchingJobs(cur);
            }
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            podDeleted(pod, true);
        }

        private void podDeleted(Pod pod, boolean isFinal) {
            OwnerReference ref = pod.metadata().controllerRef();
            boolean hasFinalizer = JobPods.hasTrackingFinalizer(pod);
            if (ref == null) {
                if (hasFinalizer && !isFinal) {
                    enqueueOrphan(pod);
                }
                return;
            }
            Job job = resolve(pod.metadata().namespace(), ref);
            if (job == null || job.isFinished()) {
                if (hasFinalizer && !isFinal && Job.KIND.equals(ref.kind())) {
                    enqueueOrphan(pod);
                }
                return;
            }
            String jobKey = job.key();
            expectations.deletionObserved(jobKey);
            if (isFinal || !hasFinalizer) {
                finalizerExpectations.finalizerRemovalObserved(
                        jobKey, pod.metadata().uid());
            }
            enqueueBatched(job);
        }
    }
}
