package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodStatus;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.api.meta.OwnerReference;
import io.kplane.api.meta.ResourceVersions;
import io.kplane.api.selector.LabelQuery;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.expectations.ControllerExpectations;
import io.kplane.client.expectations.UIDTrackingExpectations;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of one Job: upstream's {@code syncJob} for Kubernetes v1.30 (JobPodReplacementPolicy
 * and JobPodFailurePolicy on, JobManagedBy and JobSuccessPolicy off, no per-index back-off).
 *
 * <p>Conditions follow v1.30: {@code Failed} (BackoffLimitExceeded, DeadlineExceeded) and
 * {@code Complete} are written directly once every finished pod is counted; only a podFailurePolicy
 * FailJob match writes the interim {@code FailureTarget} first (so the reason survives the
 * finalizer removals), followed by {@code Failed} with the same reason and message. The
 * "delay terminal condition until pods terminated" behaviour of v1.31 is not applied.
 *
 * <p>Decision order: an existing FailureTarget; a FailJob rule; backoffLimit (failed &gt; limit, or
 * for OnFailure the container restarts of active pods); activeDeadlineSeconds. Then manageJob.
 */
public final class JobSyncer {
    private static final Logger log = LoggerFactory.getLogger(JobSyncer.class);
    static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
    static final String BACKOFF_LIMIT_MESSAGE = "Job has reached the specified backoff limit";
    static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
    static final String DEADLINE_MESSAGE = "Job was active longer than specified deadline";
    static final String POD_FAILURE_POLICY = "PodFailurePolicy";

    /** Where the syncer reads Jobs and Pods (the informer caches) and re-reads a Job before adoption. */
    public interface Source {
        Job cachedJob(String namespace, String name);

        /**
         * At least every pod of the Job's namespace that it controls (owner reference to its UID) or
         * whose labels match its selector; {@link #claimPods} decides which of them are the Job's.
         */
        List<Pod> candidatePods(Job job);

        /** A live read of the Job from the API server (null when gone), to recheck before adopting. */
        Job freshJob(String namespace, String name) throws Exception;
    }

    private final JobSyncConfig config;
    private final Clock clock;
    private final ControllerExpectations expectations;
    private final UIDTrackingExpectations finalizerExpectations;
    private final BackoffRecords backoff;
    private final PodControl podControl;
    private final EventRecorder events;
    private final Source source;
    private final BiConsumer<String, Duration> requeue;
    private final PodManager podManager;
    private final FinalizerTracker finalizerTracker;
    /**
     * Jobs this controller finished, by key: the uid and the resourceVersion of the status write that
     * finished them. Until the informer delivers that write, the cache still shows the Job running
     * (and its deleted pods gone), and a sync from it would start new pods for a finished Job.
     */
    private final Map<String, FinishedWrite> finishedWrites = new ConcurrentHashMap<>();
    /**
     * The Job as this controller's last status write returned it, by key, until the informer's cache
     * has caught up with it. A sync that starts before the informer delivered that write (a finishing
     * pod is synced at once, often right after the previous sync) would otherwise send its status with
     * the cache's older resourceVersion, get 409 Conflict and redo the whole sync. The answer of our own
     * write is the server's state at that revision, so it is never older than the cache it replaces.
     */
    private final OwnStatusWrites ownWrites = new OwnStatusWrites();

    private record FinishedWrite(String uid, String resourceVersion) {}

    public JobSyncer(
            JobSyncConfig config,
            Clock clock,
            ControllerExpectations expectations,
            UIDTrackingExpectations finalizerExpectations,
            BackoffRecords backoff,
            PodControl podControl,
            JobStatusUpdater statusUpdater,
            EventRecorder events,
            Source source,
            BiConsumer<String, Duration> requeue,
            ExecutorService writers) {
        this.config = config;
        this.clock = clock;
        this.expectations = expectations;
        this.finalizerExpectations = finalizerExpectations;
        this.backoff = backoff;
        this.podControl = podControl;
        this.events = events;
        this.source = source;
        this.requeue = requeue;
        this.podManager = new PodManager(config, clock, expectations, podControl, events, writers, requeue);
        this.finalizerTracker = new FinalizerTracker(
                config,
                finalizerExpectations,
                podControl,
                new JobStatusWriter(statusUpdater),
                backoff,
                events,
                writers,
                this::now);
    }

    /** Status times have second precision, like Kubernetes' metav1.Time. */
    private Instant now() {
        return clock.now().truncatedTo(ChronoUnit.SECONDS);
    }

    /** Syncs the Job with key {@code namespace/name}; throws to be retried with back-off. */
    public void sync(String key) throws Exception {
        ObjectKeys.Key k = ObjectKeys.split(key);
        String namespace = k.namespace();
        String name = k.name();
        Job cached = source.cachedJob(namespace, name);
        SyncScope lens = SyncScope.current();
        lens.resource("jobs");
        if (cached == null) {
            lens.decided("reconciling", "the Job is gone from the cache: expectations and back-off forgotten");
            expectations.deleteExpectations(key);
            finalizerExpectations.deleteExpectations(key);
            backoff.remove(key);
            finishedWrites.remove(key);
            ownWrites.forget(key);
            return;
        }
        Job shared = ownWrites.newestOf(key, cached);
        lens.object(shared.metadata().uid(), shared.metadata().resourceVersion());
        if (cacheBehindOwnFinish(key, cached)) {
            lens.decided("reconciling", "the cache has not yet seen this controller finish the Job: skipped");
            log.debug("job {}: the cache has not yet seen this controller finish the Job; skipping", key);
            return;
        }
        String managedBy = shared.spec().managedBy();
        if (managedBy != null && !JobSpec.MANAGED_BY_JOB_CONTROLLER.equals(managedBy)) {
            return; // another controller owns this Job
        }
        if (shared.isFinished()) {
            lens.decided("reconciling", "the Job is finished: nothing to do");
            backoff.remove(key);
            return;
        }
        String mode = shared.spec().completionMode();
        if (mode != null && !JobSpec.NON_INDEXED.equals(mode) && !JobSpec.INDEXED.equals(mode)) {
            events.event(
                    shared,
                    EventType.WARNING,
                    "UnknownCompletionMode",
                    "Skipped Job sync because completion mode is unknown");
            return;
        }

        // Check expectations before listing pods: a pod that appears after this point is at worst
        // missed until the next sync, never created twice.
        boolean satisfied = expectations.satisfiedExpectations(key);
        // Likewise the finalizer removals still expected, before listing pods: the pod informer updates
        // its cache before its handler marks a removal observed, so a pod is either in this set or
        // listed without the finalizer, never listed with it and missing from the set (which would
        // count it again against a status that already counts it, e.g. our own last write).
        java.util.Set<String> expectedRmFinalizers = finalizerExpectations.expectedUids(key);
        List<Pod> pods = claimPods(shared, source.candidatePods(shared));
        List<Pod> activePods = pods.stream().filter(JobPods::isActive).toList();
        JobSyncState s = new JobSyncState(key, shared, pods, activePods, expectedRmFinalizers);
        Job job = s.job;
        s.ready = JobPods.countReady(activePods);
        s.terminating = JobPods.countTerminating(pods);
        int active = activePods.size();

        List<Pod> newSucceeded = new ArrayList<>();
        List<Pod> newFailed = new ArrayList<>();
        collectNewFinishedPods(s, newSucceeded, newFailed);
        int nonIgnoredFailed = 0;
        for (Pod p : newFailed) {
            if (job.spec().podFailurePolicy() == null
                    || PodFailurePolicyMatcher.match(job.spec().podFailurePolicy(), p)
                            .countsFailed()) {
                nonIgnoredFailed++;
            }
        }
        s.succeeded = s.status.succeeded + newSucceeded.size() + s.status.uncountedSucceeded.size();
        s.failed = s.status.failed + nonIgnoredFailed + s.status.uncountedFailed.size();

        if (s.status.startTime == null && !job.spec().isSuspended()) {
            s.status.startTime = now();
        }
        s.newBackoffRecord = BackoffRecords.next(backoff.get(key), newSucceeded, newFailed);

        int backoffLimit = job.spec().backoffLimit() == null ? 6 : job.spec().backoffLimit();
        JobCondition failureTarget = JobConditions.find(s.status.conditions, JobCondition.FAILURE_TARGET);
        if (failureTarget != null && failureTarget.isTrue()) {
            s.finishedCondition = JobConditions.newCondition(
                    JobCondition.FAILED, JobConditions.TRUE, failureTarget.reason(), failureTarget.message(), now());
        } else if (job.spec().podFailurePolicy() != null) {
            String message = failJobMessage(job, pods);
            if (message != null) {
                s.finishedCondition = JobConditions.newCondition(
                        JobCondition.FAILURE_TARGET, JobConditions.TRUE, POD_FAILURE_POLICY, message, now());
            }
        }
        if (s.finishedCondition == null) {
            if (s.failed > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit)) {
                s.finishedCondition = JobConditions.newCondition(
                        JobCondition.FAILED, JobConditions.TRUE, BACKOFF_LIMIT_EXCEEDED, BACKOFF_LIMIT_MESSAGE, now());
            } else if (pastActiveDeadline(job, s.status.startTime)) {
                s.finishedCondition = JobConditions.newCondition(
                        JobCondition.FAILED, JobConditions.TRUE, DEADLINE_EXCEEDED, DEADLINE_MESSAGE, now());
            } else if (job.spec().activeDeadlineSeconds() != null && !job.spec().isSuspended()) {
                Duration left = Duration.ofSeconds(job.spec().activeDeadlineSeconds())
                        .minus(Duration.between(s.status.startTime, clock.now()));
                requeue.accept(key, left);
            }
        }

        if (s.isIndexed()) {
            s.prevSucceededIndexes = IndexedCompletion.parse(s.status.completedIndexes, s.completions());
            s.succeededIndexes = IndexedCompletion.succeededIndexes(job, pods);
            s.succeeded = s.succeededIndexes.size();
        } else {
            s.prevSucceededIndexes = new TreeSet<>();
            s.succeededIndexes = new TreeSet<>();
        }

        Exception manageError = null;
        int activeBefore = active;
        int deletedByFinish = 0;
        boolean manageRan = false;
        if (s.finishedCondition != null) {
            PodManager.DeleteResult removed = podManager.deleteActivePods(s, activePods);
            deletedByFinish = removed.deleted;
            if (removed.deleted != active || !satisfied) {
                // Pods may still appear in the cache or keep finalizers: decide again next sync.
                s.finishedCondition = null;
            }
            active -= removed.deleted;
            s.terminating += removed.deleted;
            s.ready -= removed.deletedReady;
            manageError = removed.firstError;
        } else {
            boolean manageCalled = false;
            if (satisfied && job.metadata().deletionTimestamp() == null) {
                active = podManager.manage(s);
                manageError = s.manageError;
                manageCalled = true;
                manageRan = true;
            }
            boolean complete = job.spec().completions() == null
                    ? s.succeeded > 0 && active == 0
                    : s.succeeded >= job.spec().completions() && active == 0;
            if (complete) {
                s.finishedCondition =
                        JobConditions.newCondition(JobCondition.COMPLETE, JobConditions.TRUE, "", "", now());
            } else if (manageCalled) {
                updateSuspendedCondition(s);
            }
        }

        s.status.active = active;
        s.status.ready = Math.max(0, s.ready);
        s.status.terminating = Math.max(0, s.terminating);
        if (lens.enabled()) {
            JobSyncDecision.report(
                    lens,
                    s,
                    satisfied,
                    expectations.getExpectations(key).orElse(null),
                    activeBefore,
                    active,
                    deletedByFinish,
                    manageRan,
                    newSucceeded.size(),
                    newFailed.size(),
                    s.newBackoffRecord == null
                            ? Duration.ZERO
                            : s.newBackoffRecord.remaining(
                                    clock.now(), config.podFailureBackoffBase(), config.podFailureBackoffMax()));
        }
        try {
            finalizerTracker.track(s);
        } finally {
            ownWrites.remember(key, shared, s.job);
        }
        if (s.job.isFinished()) {
            rememberFinished(key, s.job);
        }
        if (manageError != null) {
            throw manageError;
        }
    }

    /** Whether {@code cached} predates the status write with which this controller finished the Job. */
    private boolean cacheBehindOwnFinish(String key, Job cached) {
        FinishedWrite write = finishedWrites.get(key);
        if (write == null) {
            return false;
        }
        if (cached.isFinished() || !write.uid().equals(cached.metadata().uid())) {
            finishedWrites.remove(key);
            return false;
        }
        return ResourceVersions.isNewer(
                write.resourceVersion(), cached.metadata().resourceVersion());
    }

    private void rememberFinished(String key, Job written) {
        String version = written.metadata().resourceVersion();
        if (ResourceVersions.parse(version) >= 0) {
            finishedWrites.put(key, new FinishedWrite(written.metadata().uid(), version));
        }
    }

    private void updateSuspendedCondition(JobSyncState s) {
        Job job = s.job;
        if (job.spec().isSuspended()) {
            List<JobCondition> updated = JobConditions.ensure(
                    s.status.conditions,
                    JobCondition.SUSPENDED,
                    JobConditions.TRUE,
                    "JobSuspended",
                    "Job suspended",
                    now());
            if (updated != null) {
                s.status.conditions = updated;
                events.event(job, EventType.NORMAL, "Suspended", "Job suspended");
            }
        } else {
            List<JobCondition> updated = JobConditions.ensure(
                    s.status.conditions,
                    JobCondition.SUSPENDED,
                    JobConditions.FALSE,
                    "JobResumed",
                    "Job resumed",
                    now());
            if (updated != null) {
                s.status.conditions = updated;
                events.event(job, EventType.NORMAL, "Resumed", "Job resumed");
                // activeDeadlineSeconds counts continuous activity, so the clock restarts on resume.
                s.status.startTime = now();
            }
        }
    }

    /** Finished pods not yet in the status: still carrying the finalizer and not already uncounted. */
    private static void collectNewFinishedPods(JobSyncState s, List<Pod> succeeded, List<Pod> failed) {
        for (Pod pod : s.pods) {
            String uid = pod.metadata().uid();
            if (!JobPods.hasTrackingFinalizer(pod) || s.expectedRmFinalizers.contains(uid)) {
                continue;
            }
            if (s.isIndexed() && !IndexedCompletion.isValid(IndexedCompletion.indexOf(pod), s.completions())) {
                continue;
            }
            if (PodStatus.SUCCEEDED.equals(pod.phase())) {
                if (!s.uncountedSucceededAtStart.contains(uid)) {
                    succeeded.add(pod);
                }
            } else if (JobPods.isFailed(pod, s.job) && !s.uncountedFailedAtStart.contains(uid)) {
                failed.add(pod);
            }
        }
    }

    private static String failJobMessage(Job job, List<Pod> pods) {
        for (Pod pod : pods) {
            if (JobPods.isFailed(pod, job)) {
                PodFailurePolicyMatcher.Match m =
                        PodFailurePolicyMatcher.match(job.spec().podFailurePolicy(), pod);
                if (m.failJobMessage() != null) {
                    return m.failJobMessage();
                }
            }
        }
        return null;
    }

    /** restartPolicy OnFailure: the container restarts of Pending/Running pods reached the limit. */
    static boolean pastBackoffLimitOnFailure(Job job, List<Pod> pods, int backoffLimit) {
        PodSpec spec = job.spec().template().spec();
        if (spec == null || !PodSpec.RESTART_ON_FAILURE.equals(spec.restartPolicy())) {
            return false;
        }
        long restarts = JobPods.restartsOfRunningPods(pods);
        return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
    }

    private boolean pastActiveDeadline(Job job, Instant startTime) {
        if (job.spec().activeDeadlineSeconds() == null
                || startTime == null
                || job.spec().isSuspended()) {
            return false;
        }
        return Duration.between(startTime, clock.now())
                        .compareTo(Duration.ofSeconds(job.spec().activeDeadlineSeconds()))
                >= 0;
    }

    /**
     * The pods this Job controls: those whose controller reference is this Job and still match the
     * selector, plus matching orphans it adopts. Pods controlled by another object (or by a former
     * Job of the same name, with another UID) are left alone; a controlled pod that stopped
     * matching is released.
     */
    List<Pod> claimPods(Job job, List<Pod> namespacePods) throws Exception {
        LabelQuery selector = job.spec().selector() == null
                ? null
                : LabelQuery.from(job.spec().selector());
        String uid = job.metadata().uid();
        boolean jobDeleting = job.metadata().deletionTimestamp() != null;
        List<Pod> claimed = new ArrayList<>();
        Boolean canAdopt = null;
        for (Pod pod : namespacePods) {
            OwnerReference ref = pod.metadata().controllerRef();
            boolean matches =
                    selector != null && selector.matches(pod.metadata().labelsOrEmpty());
            if (ref != null) {
                if (!uid.equals(ref.uid())) {
                    continue;
                }
                // A Job without a selector (the server did not default one) keeps what it controls
                // rather than releasing every pod it creates.
                if (matches || selector == null) {
                    claimed.add(pod);
                } else if (!jobDeleting && pod.metadata().deletionTimestamp() == null) {
                    try {
                        podControl.release(pod, uid);
                    } catch (Exception e) {
                        log.warn(
                                "job {}/{}: releasing pod {} failed: {}",
                                job.metadata().namespace(),
                                job.metadata().name(),
                                pod.metadata().name(),
                                e.getMessage());
                    }
                }
                continue;
            }
            if (!matches || jobDeleting || pod.metadata().deletionTimestamp() != null) {
                continue;
            }
            if (canAdopt == null) {
                Job fresh = source.freshJob(
                        job.metadata().namespace(), job.metadata().name());
                canAdopt = fresh != null
                        && uid.equals(fresh.metadata().uid())
                        && fresh.metadata().deletionTimestamp() == null;
            }
            if (!canAdopt) {
                continue;
            }
            OwnerReference controllerRef = PodTemplates.controllerRef(job);
            podControl.adopt(pod, controllerRef);
            List<String> finalizers = new ArrayList<>(pod.metadata().finalizersOrEmpty());
            if (!finalizers.contains(Job.TRACKING_FINALIZER)) {
                finalizers.add(Job.TRACKING_FINALIZER);
            }
            List<OwnerReference> refs = new ArrayList<>(pod.metadata().ownerReferencesOrEmpty());
            refs.add(controllerRef);
            claimed.add(
                    pod.withMetadata(pod.metadata().withOwnerReferences(refs).withFinalizers(finalizers)));
            log.info(
                    "job {}/{} adopted pod {}",
                    job.metadata().namespace(),
                    job.metadata().name(),
                    pod.metadata().name());
        }
        return claimed;
    }
}
