package io.kplane.controllers.cronjob;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronSchedule;
import io.kplane.api.batch.Job;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.api.meta.OwnerReference;
import io.kplane.api.meta.ResourceVersions;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.Indexers;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CronJob controller (Kubernetes' ControllerV2): CronJob and Job informers feed a delaying
 * work queue of CronJob keys; each key is synced when something changes and again right after its
 * next schedule time, never by polling.
 */
public final class CronJobController implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(CronJobController.class);
    public static final String NAME = "cronjob-controller";

    private final SharedInformer<CronJob> cronJobs;
    private final SharedInformer<Job> jobs;
    private final CronJobSyncer syncer;
    private final Clock clock;
    private final RateLimitingQueue<String> queue;
    private final Controller controller;
    private volatile Consumer<CronJobSyncer.Outcome> onSync = outcome -> {};
    /**
     * The last status this controller wrote per CronJob key. A sync triggered by the Job it just
     * created can run before the informer delivers that status; reading our own write instead of the
     * older cached object avoids repeated events and conflicting writes.
     */
    private final ConcurrentMap<String, CronJob> lastWritten = new ConcurrentHashMap<>();

    public CronJobController(
            SharedInformer<CronJob> cronJobs,
            SharedInformer<Job> jobs,
            JobControl control,
            EventRecorder events,
            Clock clock,
            int workers) {
        this.cronJobs = cronJobs;
        this.jobs = jobs;
        this.clock = clock;
        this.syncer =
                new CronJobSyncer(new RememberingStatusWrites(new LensJobControl(control)), reporting(events), clock);
        this.queue = RateLimitingQueue.create(clock, cronJobs.lens(), "cronjob");
        this.controller = Controller.builder()
                .name(NAME)
                .workers(workers)
                .queue(queue)
                .reconciler(this)
                .lens(cronJobs.lens(), "cronjob", "cronjob")
                .build();
        if (!jobs.indexer().indexNames().contains(Indexers.CONTROLLER)) {
            jobs.addIndexers(java.util.Map.of(Indexers.CONTROLLER, Indexers.byController()));
        }
        cronJobs.addEventHandler(new CronJobHandler());
        jobs.addEventHandler(new JobHandler());
    }

    /** Events also join the running sync's lens record (a no-op with the lens off). */
    private static EventRecorder reporting(EventRecorder events) {
        return (about, type, reason, message) -> {
            events.event(about, type, reason, message);
            SyncScope.current().event(type, reason, message);
        };
    }

    /** Observes every successful sync (the benchmark measures scheduling lag with it). */
    public void onSync(Consumer<CronJobSyncer.Outcome> listener) {
        this.onSync = Objects.requireNonNull(listener);
    }

    /** Starts the workers once both caches hold the first list (a half-filled cache would create duplicates). */
    public void start(Duration syncTimeout) throws InterruptedException {
        if (!cronJobs.waitForSync(syncTimeout) || !jobs.waitForSync(syncTimeout)) {
            throw new IllegalStateException("caches of " + NAME + " did not sync within " + syncTimeout);
        }
        controller.start();
    }

    /** Starts the workers; the caller has waited for the informers' caches. */
    public void startWorkers() {
        controller.start();
    }

    public void stop(Duration timeout) throws InterruptedException {
        controller.stop(timeout);
    }

    @Override
    public Result reconcile(String key) throws Exception {
        ObjectKeys.Key k = ObjectKeys.split(key);
        String ns = k.namespace();
        String name = k.name();
        Optional<? extends CronJob> cached = cronJobs.lister().get(ns, name);
        if (cached.isEmpty()) {
            SyncScope.current()
                    .resource("cronjobs")
                    .decided(
                            "deleted",
                            "the CronJob is gone from the cache: "
                                    + "nothing to do (the garbage collector deletes its Jobs)");
            lastWritten.remove(key);
            return Result.done(); // deleted: the garbage collector removes its Jobs
        }
        Optional<CronJob> cronJob = Optional.of(newest(key, cached.get()));
        // Like upstream, Jobs are matched by their controller reference's kind and name, not UID
        // (JobsFromCronJob.isControlledByName); the index makes that a lookup instead of a scan of
        // every Job in the namespace per sync.
        List<Job> owned =
                jobs.lister().byIndex(Indexers.CONTROLLER, Indexers.controllerKey(ns, CronJob.KIND, name)).stream()
                        .map(Job.class::cast)
                        .toList();
        CronJobSyncer.Outcome outcome = syncer.sync(cronJob.get(), owned);
        onSync.accept(outcome);
        return outcome.requeueAfter() == null ? Result.done() : Result.requeueAfter(outcome.requeueAfter());
    }

    private CronJob newest(String key, CronJob cached) {
        CronJob written = lastWritten.get(key);
        if (written == null
                || !Objects.equals(written.uid(), cached.uid())
                || !ResourceVersions.isNewer(
                        written.metadata().resourceVersion(), cached.metadata().resourceVersion())) {
            lastWritten.remove(key, written);
            return cached;
        }
        return written;
    }

    /** Remembers each status write's result for {@link #newest}. */
    private final class RememberingStatusWrites implements JobControl {
        private final JobControl delegate;

        RememberingStatusWrites(JobControl delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<Job> getJob(String namespace, String name) throws Exception {
            return delegate.getJob(namespace, name);
        }

        @Override
        public Job createJob(Job job) throws Exception {
            return delegate.createJob(job);
        }

        @Override
        public boolean deleteJob(String namespace, String name) throws Exception {
            return delegate.deleteJob(namespace, name);
        }

        @Override
        public Optional<CronJob> getCronJob(String namespace, String name) throws Exception {
            return delegate.getCronJob(namespace, name);
        }

        @Override
        public CronJob updateStatus(CronJob cronJob) throws Exception {
            CronJob written = delegate.updateStatus(cronJob);
            if (written != null
                    && written.metadata() != null
                    && written.metadata().resourceVersion() != null) {
                lastWritten.put(written.key(), written);
            }
            return written;
        }
    }

    private void enqueue(CronJob cronJob) {
        queue.add(cronJob.key());
    }

    /** The CronJob a Job's controller reference points at, if it is the one in the cache (same uid). */
    private Optional<CronJob> resolveControllerRef(String namespace, OwnerReference ref) {
        if (ref == null || !CronJob.KIND.equals(ref.kind())) {
            return Optional.empty();
        }
        return cronJobs.lister()
                .get(namespace, ref.name())
                .filter(cj -> Objects.equals(cj.uid(), ref.uid()))
                .map(CronJob.class::cast);
    }

    private final class CronJobHandler implements ResourceEventHandler<CronJob> {
        @Override
        public void onAdd(CronJob obj, boolean isInInitialList) {
            enqueue(obj);
        }

        @Override
        public void onUpdate(CronJob oldObj, CronJob newObj) {
            boolean scheduleChanged = !Objects.equals(
                            oldObj.spec().schedule(), newObj.spec().schedule())
                    || !Objects.equals(oldObj.spec().timeZone(), newObj.spec().timeZone());
            if (scheduleChanged) {
                // Kubernetes requeues for the new schedule's next time; a key already queued for an
                // earlier time just finds nothing to do and requeues itself.
                try {
                    CronSchedule schedule = syncer.parseSchedule(newObj, false);
                    Instant last =
                            newObj.status() == null ? null : newObj.status().lastScheduleTime();
                    ScheduleMath.untilNextSchedule(schedule, newObj.metadata().creationTimestamp(), last, clock.now())
                            .ifPresent(d -> queue.addAfter(newObj.key(), d));
                } catch (IllegalArgumentException e) {
                    log.info(
                            "cronjob {}: unparseable schedule {}: {}",
                            newObj.key(),
                            newObj.spec().schedule(),
                            e.getMessage());
                    enqueue(newObj); // the sync reports it as an event
                }
                return;
            }
            enqueue(newObj);
        }

        @Override
        public void onDelete(CronJob obj, boolean finalStateUnknown) {
            enqueue(obj);
        }
    }

    private final class JobHandler implements ResourceEventHandler<Job> {
        @Override
        public void onAdd(Job job, boolean isInInitialList) {
            resolveControllerRef(job.namespace(), job.metadata().controllerRef())
                    .ifPresent(CronJobController.this::enqueue);
        }

        @Override
        public void onUpdate(Job oldJob, Job newJob) {
            if (Objects.equals(
                    oldJob.metadata().resourceVersion(), newJob.metadata().resourceVersion())) {
                return; // resync
            }
            OwnerReference oldRef = oldJob.metadata().controllerRef();
            OwnerReference newRef = newJob.metadata().controllerRef();
            if (oldRef != null && !Objects.equals(oldRef, newRef)) {
                resolveControllerRef(oldJob.namespace(), oldRef).ifPresent(CronJobController.this::enqueue);
            }
            resolveControllerRef(newJob.namespace(), newRef).ifPresent(CronJobController.this::enqueue);
        }

        @Override
        public void onDelete(Job job, boolean finalStateUnknown) {
            resolveControllerRef(job.namespace(), job.metadata().controllerRef())
                    .ifPresent(CronJobController.this::enqueue);
        }
    }
}
