package io.kplane.controllers.ttl;

import io.kplane.api.batch.Job;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.DeletionPropagation;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes Jobs {@code ttlSecondsAfterFinished} seconds after they finished (background propagation,
 * so the garbage collector removes their pods). Each Job is requeued for the exact moment it expires;
 * a TTL edit re-enqueues it; the live object is re-read and the delete carries its uid and
 * resourceVersion as preconditions, so a Job changed in the meantime is never deleted by mistake.
 */
public final class TtlAfterFinishedController implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(TtlAfterFinishedController.class);
    public static final String NAME = "ttl-after-finished-controller";
    /** The controller's name in the lens (its queue is upstream's {@code ttl_jobs_to_delete}). */
    static final String LENS_NAME = "ttl";

    private final SharedInformer<Job> jobs;
    private final KubeClient client;
    private final Clock clock;
    private final RateLimitingQueue<String> queue;
    private final Controller controller;

    public TtlAfterFinishedController(SharedInformer<Job> jobs, KubeClient client, Clock clock, int workers) {
        this.jobs = jobs;
        this.client = client;
        this.clock = clock;
        this.queue = RateLimitingQueue.create(clock, jobs.lens(), "ttl_jobs_to_delete");
        this.controller = Controller.builder()
                .name(NAME)
                .workers(workers)
                .queue(queue)
                .reconciler(this)
                .lens(jobs.lens(), LENS_NAME, "ttl_jobs_to_delete")
                .build();
        jobs.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Job job, boolean isInInitialList) {
                enqueueIfNeeded(job);
            }

            @Override
            public void onUpdate(Job oldJob, Job newJob) {
                enqueueIfNeeded(newJob);
            }
        });
    }

    public void start(Duration syncTimeout) throws InterruptedException {
        if (!jobs.waitForSync(syncTimeout)) {
            throw new IllegalStateException("job cache of " + NAME + " did not sync within " + syncTimeout);
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

    private void enqueueIfNeeded(Job job) {
        if (FinishedJobTtl.needsCleanup(job)) {
            queue.add(job.key());
        }
    }

    @Override
    public Result reconcile(String key) {
        SyncScope lens = SyncScope.current().resource("jobs");
        ObjectKeys.Key k = ObjectKeys.split(key);
        String ns = k.namespace();
        String name = k.name();
        Optional<? extends Job> cached = jobs.lister().get(ns, name);
        if (cached.isEmpty()) {
            lens.decided(TtlDecision.GONE, "the Job is not in the cache");
            return Result.done();
        }
        TtlDecision.saw(lens, cached.get(), "cache");
        Optional<Duration> wait = remaining(cached.get());
        if (wait.isEmpty()) {
            TtlDecision.notExpiring(lens, cached.get());
            return Result.done();
        }
        if (wait.get().compareTo(Duration.ZERO) > 0) {
            TtlDecision.expiresAt(lens, cached.get(), wait.get());
            return Result.requeueAfter(wait.get());
        }
        // The cache may be stale (TTL raised, Job restarted as a new object): decide on the live Job.
        Optional<Job> live = client.jobs().inNamespace(ns).find(name);
        if (live.isEmpty()) {
            lens.decided(TtlDecision.GONE, "the Job is gone (read live)");
            return Result.done();
        }
        Job fresh = live.get();
        TtlDecision.saw(lens, fresh, "live");
        wait = remaining(fresh);
        if (wait.isEmpty()) {
            TtlDecision.notExpiring(lens, fresh);
            return Result.done();
        }
        if (wait.get().compareTo(Duration.ZERO) > 0) {
            TtlDecision.expiresAt(lens, fresh, wait.get());
            return Result.requeueAfter(wait.get());
        }
        DeleteOptions options = new DeleteOptions(
                null,
                null,
                null,
                new DeleteOptions.Preconditions(fresh.uid(), fresh.metadata().resourceVersion()),
                DeletionPropagation.BACKGROUND,
                null,
                null);
        try {
            Optional<Job> left = client.jobs().inNamespace(ns).delete(name, options);
            lens.wrote(
                            "delete (Background)",
                            "jobs",
                            key,
                            left.map(j -> j.metadata().resourceVersion()).orElse(null),
                            null)
                    .decided(
                            TtlDecision.DELETED,
                            "expired " + TtlDecision.since(clock, fresh)
                                    + " ago; deleted with uid and resourceVersion preconditions");
            log.info("deleted job {} {}s after it finished", key, fresh.spec().ttlSecondsAfterFinished());
        } catch (ApiException e) {
            lens.wrote("delete (Background)", "jobs", key, null, e.getMessage());
            if (e.isNotFound()) {
                lens.decided(TtlDecision.GONE, "the Job was deleted meanwhile");
                return Result.done();
            }
            if (e.isConflict()) {
                lens.decided(TtlDecision.CHANGED, "the Job changed since it was read: look again");
                return Result.requeue(); // changed since we read it: look again
            }
            throw e;
        }
        return Result.done();
    }

    /** Time left before {@code job} expires; empty if it needs no cleanup (or its finish time is unknown). */
    private Optional<Duration> remaining(Job job) {
        Optional<Instant> expiry = FinishedJobTtl.expiry(job);
        if (expiry.isEmpty() && FinishedJobTtl.needsCleanup(job)) {
            log.warn("job {} has ttlSecondsAfterFinished but no finish time; not deleting it", job.key());
        }
        return expiry.map(at -> Duration.between(clock.now(), at));
    }
}
