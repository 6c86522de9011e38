package io.kplane.controllers.job;

import static io.kplane.controllers.job.FakeWorld.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.batch.PodFailurePolicy;
import io.kplane.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.kplane.api.batch.PodFailurePolicyRule;
import io.kplane.api.core.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** syncJob decisions, modelled on TestControllerSyncJob and its siblings in Kubernetes' job_controller_test.go. */
class JobSyncerTest {

    private static JobCondition condition(FakeWorld w, String type) {
        return w.status().condition(type);
    }

    @Test
    void jobStartCreatesParallelismPodsAndSetsStartTime() {
        FakeWorld w = new FakeWorld().with(job(2, 5));
        assertThat(w.sync()).isNull();
        assertThat(w.created).hasSize(2);
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.status().startTime()).isNotNull();
        Pod pod = w.created.get(0);
        assertThat(pod.metadata().generateName()).isEqualTo("foobar-");
        assertThat(pod.metadata().finalizers()).containsExactly(Job.TRACKING_FINALIZER);
        assertThat(pod.metadata().ownerReferences().get(0).controller()).isTrue();
        assertThat(pod.metadata().ownerReferences().get(0).blockOwnerDeletion()).isTrue();
        assertThat(pod.metadata().labels()).containsEntry(Job.CONTROLLER_UID_LABEL, FakeWorld.UID);
        assertThat(w.events).contains("SuccessfulCreate: Created pod: foobar-0");
    }

    @Test
    void workQueueJobStartsParallelismPods() {
        FakeWorld w = new FakeWorld().with(job(2, null));
        w.sync();
        assertThat(w.created).hasSize(2);
    }

    @Test
    void pendingPodsAreActiveAndNotRecreated() {
        FakeWorld w = new FakeWorld().with(job(2, null));
        w.add(2, "Pending");
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.active()).isEqualTo(2);
    }

    @Test
    void readyPodsAreCounted() {
        FakeWorld w = new FakeWorld().with(job(3, null));
        w.add(FakeWorld.ready(w.pod("Running")))
                .add(FakeWorld.ready(w.pod("Running")))
                .add(1, "Running");
        w.sync();
        assertThat(w.active()).isEqualTo(3);
        assertThat(w.status().ready()).isEqualTo(2);
    }

    @Test
    void tooFewActivePods() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(1, "Running").add(1, "Succeeded");
        w.sync();
        assertThat(w.created).hasSize(1);
        assertThat(w.deleted).isEmpty();
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.succeeded()).isEqualTo(1);
        assertThat(w.finalizersRemoved).containsExactly("foobar-2");
    }

    @Test
    void tooFewActivePodsWithActiveBackoffWaits() {
        FakeWorld w = new FakeWorld().with(job(1, 1));
        w.backoff.put(FakeWorld.NS + "/foobar", new BackoffRecords.Record(1, w.clock.now()));
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.requeues).contains(Duration.ofSeconds(10));
    }

    @Test
    void tooManyActivePodsDeletesTheSurplus() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(3, "Running");
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.deleted).hasSize(1);
        assertThat(w.active()).isEqualTo(2);
        // Surplus pods lose their finalizer first: a pod we delete is never counted as failed.
        assertThat(w.finalizersRemoved).containsExactlyElementsOf(w.deleted);
        assertThat(w.failed()).isZero();
    }

    @Test
    void moreActiveThanParallelism() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(10, "Running");
        w.sync();
        assertThat(w.deleted).hasSize(8);
        assertThat(w.active()).isEqualTo(2);
        // Newest pods go first (all else equal).
        assertThat(w.deleted).doesNotContain("foobar-1", "foobar-2");
    }

    @Test
    void moreActiveThanRemainingCompletions() {
        FakeWorld w = new FakeWorld().with(job(3, 4)).add(3, "Running").add(2, "Succeeded");
        w.sync();
        assertThat(w.deleted).hasSize(1);
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.succeeded()).isEqualTo(2);
    }

    @Test
    void failedAndSucceededResetsBackoff() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(1, "Running").add(1, "Failed");
        Pod succeeded = w.pod("Succeeded");
        // The success finished after the failure.
        w.add(succeeded.withMetadata(
                succeeded.metadata().withCreationTimestamp(w.clock.now().minusSeconds(1))));
        w.sync();
        assertThat(w.created).hasSize(1);
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.succeeded()).isEqualTo(1);
        assertThat(w.failed()).isEqualTo(1);
    }

    @Test
    void newFailedPodIsReplacedAfterTheBackoff() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(1, "Running");
        Pod failed = w.pod("Failed");
        w.add(FakeWorld.withExit(
                failed.withMetadata(
                        failed.metadata().withCreationTimestamp(w.clock.now().minusSeconds(11))),
                1));
        w.sync();
        assertThat(w.created).hasSize(1);
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.failed()).isEqualTo(1);
    }

    @Test
    void jobFinish() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(5, "Succeeded");
        w.sync();
        assertThat(w.succeeded()).isEqualTo(5);
        JobCondition complete = condition(w, JobCondition.COMPLETE);
        assertThat(complete.status()).isEqualTo("True");
        assertThat(complete.reason()).isEmpty();
        assertThat(w.status().completionTime()).isNotNull();
        assertThat(w.status().uncountedTerminatedPods().succeeded()).isNull();
        assertThat(w.events).contains("Completed: Job completed");
    }

    @Test
    void workQueueJobFinishingWaitsForActivePods() {
        FakeWorld w = new FakeWorld().with(job(2, null)).add(1, "Running").add(1, "Succeeded");
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.active()).isEqualTo(1);
        assertThat(condition(w, JobCondition.COMPLETE)).isNull();
    }

    @Test
    void workQueueJobAllFinishedDespiteOneFailure() {
        FakeWorld w = new FakeWorld().with(job(2, null)).add(1, "Succeeded").add(1, "Failed");
        w.sync();
        assertThat(w.succeeded()).isEqualTo(1);
        assertThat(w.failed()).isEqualTo(1);
        assertThat(condition(w, JobCondition.COMPLETE)).isNotNull();
    }

    @Test
    void deletingJobNeitherCreatesNorDeletes() {
        FakeWorld w = new FakeWorld();
        Job j = job(2, 5);
        w.with(j.withMetadata(j.metadata().withDeletionTimestamp(w.clock.now())));
        w.add(1, "Pending").add(1, "Running").add(1, "Succeeded");
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.deleted).isEmpty();
        assertThat(w.active()).isEqualTo(2);
        assertThat(w.succeeded()).isEqualTo(1);
    }

    @Test
    void limitedPodsSlowStart() {
        FakeWorld w = new FakeWorld().with(job(100, 200));
        w.createLimit = 10;
        Exception error = w.sync();
        assertThat(error).isNotNull();
        // Batches 1, 2, 4, 8: the fourth batch fails after 3 more pods, so 10 are created.
        assertThat(w.created).hasSize(10);
        assertThat(w.active()).isEqualTo(10);
    }

    @Test
    void tooManyFailuresFailsTheJob() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(1).completions(1).backoffLimit(0)))
                .add(1, "Failed");
        w.sync();
        JobCondition failed = condition(w, JobCondition.FAILED);
        assertThat(failed.reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(failed.message()).isEqualTo("Job has reached the specified backoff limit");
        assertThat(w.failed()).isEqualTo(1);
        assertThat(w.status().completionTime()).isNull();
        assertThat(w.events).contains("BackoffLimitExceeded: Job has reached the specified backoff limit");
    }

    @Test
    void jobFailuresWithUnsatisfiedExpectationsWait() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(1).completions(1).backoffLimit(0)))
                .add(1, "Failed");
        w.expectations.expectCreations(FakeWorld.NS + "/foobar", 1);
        w.sync();
        assertThat(condition(w, JobCondition.FAILED)).isNull();
        assertThat(w.failed()).isEqualTo(1);
    }

    @Test
    void suspendingDeletesActivePodsWithoutCountingThem() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(4).suspend(true)))
                .add(2, "Running");
        w.sync();
        assertThat(w.deleted).hasSize(2);
        assertThat(w.active()).isZero();
        assertThat(w.failed()).isZero();
        JobCondition suspended = condition(w, JobCondition.SUSPENDED);
        assertThat(suspended.status()).isEqualTo("True");
        assertThat(suspended.reason()).isEqualTo("JobSuspended");
        assertThat(suspended.message()).isEqualTo("Job suspended");
        assertThat(w.status().startTime()).isNull();
        assertThat(w.events).contains("Suspended: Job suspended");
    }

    @Test
    void suspendingWithUnsatisfiedExpectationsIsANoOp() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(4).suspend(true)))
                .add(3, "Running");
        w.expectations.expectDeletions(FakeWorld.NS + "/foobar", 1);
        w.sync();
        assertThat(w.deleted).isEmpty();
        assertThat(w.active()).isEqualTo(3);
        assertThat(condition(w, JobCondition.SUSPENDED)).isNull();
    }

    @Test
    void resumingResetsStartTime() {
        FakeWorld w = new FakeWorld();
        Job j = job(2, 4);
        java.time.Instant longAgo = w.clock.now().minusSeconds(3600);
        w.with(j.withStatus(JobStatusBuilder.builder()
                .startTime(longAgo)
                .conditions(List.of(new JobCondition(
                        JobCondition.SUSPENDED, "True", longAgo, longAgo, "JobSuspended", "Job suspended")))
                .build()));
        w.sync();
        assertThat(w.created).hasSize(2);
        JobCondition suspended = condition(w, JobCondition.SUSPENDED);
        assertThat(suspended.status()).isEqualTo("False");
        assertThat(suspended.reason()).isEqualTo("JobResumed");
        assertThat(w.status().startTime()).isEqualTo(w.clock.now());
        assertThat(w.events).contains("Resumed: Job resumed");
    }

    @Test
    void pastDeadlineFailsAndDeletesActivePods() {
        FakeWorld w = new FakeWorld();
        Job j = job(JobSpecBuilder.builder().parallelism(1).completions(1).activeDeadlineSeconds(10L));
        w.with(j.withStatus(JobStatusBuilder.builder()
                        .startTime(w.clock.now().minusSeconds(15))
                        .build()))
                .add(1, "Running");
        w.sync();
        assertThat(w.deleted).hasSize(1);
        assertThat(w.failed()).isEqualTo(1);
        JobCondition failed = condition(w, JobCondition.FAILED);
        assertThat(failed.reason()).isEqualTo("DeadlineExceeded");
        assertThat(failed.message()).isEqualTo("Job was active longer than specified deadline");
    }

    @Test
    void deadlineIsInclusiveAndBackoffLimitWins() {
        FakeWorld w = new FakeWorld();
        Job j = job(JobSpecBuilder.builder().parallelism(1).completions(1).activeDeadlineSeconds(10L));
        w.with(j.withStatus(JobStatusBuilder.builder()
                .startTime(w.clock.now().minusSeconds(10))
                .build()));
        w.sync();
        assertThat(condition(w, JobCondition.FAILED).reason()).isEqualTo("DeadlineExceeded");

        FakeWorld w2 = new FakeWorld();
        Job j2 = job(JobSpecBuilder.builder()
                .parallelism(1)
                .completions(1)
                .activeDeadlineSeconds(1L)
                .backoffLimit(0));
        w2.with(j2.withStatus(JobStatusBuilder.builder()
                        .startTime(w2.clock.now().minusSeconds(5))
                        .build()))
                .add(1, "Failed");
        w2.sync();
        assertThat(condition(w2, JobCondition.FAILED).reason()).isEqualTo("BackoffLimitExceeded");
    }

    @Test
    void aBackoffShorterThanTheBatchPeriodRequeuesAfterThePeriod() {
        // upstream's enqueueSyncJobWithDelay: a pod-failure back-off never requeues sooner than the period
        FakeWorld w = new FakeWorld().with(job(1, 1));
        w.backoff.put(
                FakeWorld.NS + "/foobar",
                new BackoffRecords.Record(1, w.clock.now().minusMillis(9_700)));
        w.sync();
        assertThat(w.created).isEmpty();
        assertThat(w.requeues).containsExactly(JobSyncConfig.defaults().podEventBatchPeriod());
    }

    @Test
    void aDeadlineCloserThanTheBatchPeriodRequeuesForTheRemainingTime() {
        // upstream's syncJob: queue.AddAfter(key, activeDeadline - elapsed), not clamped to the period
        FakeWorld w = new FakeWorld();
        Job j = job(JobSpecBuilder.builder().parallelism(1).completions(1).activeDeadlineSeconds(10L));
        w.with(j.withStatus(JobStatusBuilder.builder()
                        .startTime(w.clock.now().minusMillis(9_700))
                        .build()))
                .add(1, "Running");
        w.sync();
        assertThat(w.requeues).contains(Duration.ofMillis(300));
    }

    @Test
    void runningDeadlineRequeuesForTheRemainingTime() {
        FakeWorld w = new FakeWorld();
        Job j = job(JobSpecBuilder.builder().parallelism(1).completions(1).activeDeadlineSeconds(10L));
        w.with(j.withStatus(JobStatusBuilder.builder()
                        .startTime(w.clock.now().minusSeconds(4))
                        .build()))
                .add(1, "Running");
        w.sync();
        assertThat(w.requeues).contains(Duration.ofSeconds(6));
    }

    @Test
    void onFailureRestartsReachingTheLimitFailTheJob() {
        FakeWorld w = new FakeWorld()
                .with(FakeWorld.onFailure(job(
                        JobSpecBuilder.builder().parallelism(1).completions(1).backoffLimit(1))));
        w.add(FakeWorld.withRestarts(w.pod("Running"), 1));
        w.sync();
        assertThat(condition(w, JobCondition.FAILED).reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(w.active()).isZero();
        assertThat(w.failed()).isEqualTo(1);

        FakeWorld w3 = new FakeWorld()
                .with(FakeWorld.onFailure(job(
                        JobSpecBuilder.builder().parallelism(2).completions(2).backoffLimit(3))));
        w3.add(FakeWorld.withRestarts(w3.pod("Running"), 1)).add(FakeWorld.withRestarts(w3.pod("Running"), 1));
        w3.sync();
        assertThat(condition(w3, JobCondition.FAILED)).isNull();
        assertThat(w3.active()).isEqualTo(2);
    }

    @Test
    void neverRestartPolicyFailsOnlyAboveTheLimit() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(1).completions(1).backoffLimit(6)));
        w.add(6, "Failed").add(1, "Running");
        w.sync();
        assertThat(condition(w, JobCondition.FAILED)).isNull();
        assertThat(w.failed()).isEqualTo(6);
        w.pods.add(w.pod("Failed"));
        w.sync();
        assertThat(condition(w, JobCondition.FAILED).reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(w.failed()).isEqualTo(8); // 7 failed plus the running pod killed by the failure
    }

    @Test
    void indexedJobStart() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(5).completionMode(JobSpec.INDEXED)));
        w.sync();
        assertThat(w.created)
                .extracting(p -> p.metadata().annotations().get(Job.COMPLETION_INDEX_ANNOTATION))
                .containsExactlyInAnyOrder("0", "1");
        Pod zero = w.created.stream()
                .filter(p -> p.metadata().generateName().equals("foobar-0-"))
                .findFirst()
                .orElseThrow();
        assertThat(zero.spec().hostname()).isEqualTo("foobar-0");
        assertThat(zero.metadata().labels()).containsEntry(Job.COMPLETION_INDEX_ANNOTATION, "0");
        assertThat(zero.spec().containers().get(0).env())
                .anyMatch(e -> e.name().equals("JOB_COMPLETION_INDEX")
                        && e.valueFrom()
                                .fieldRef()
                                .fieldPath()
                                .equals("metadata.annotations['batch.kubernetes.io/job-completion-index']"));
    }

    @Test
    void indexedJobCompleted() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(3).completionMode(JobSpec.INDEXED)));
        w.add(FakeWorld.withIndex(w.pod("Succeeded"), 0))
                .add(FakeWorld.withIndex(w.pod("Failed"), 1))
                .add(FakeWorld.withIndex(w.pod("Succeeded"), 1))
                .add(FakeWorld.withIndex(w.pod("Succeeded"), 2));
        w.sync();
        assertThat(w.succeeded()).isEqualTo(3);
        assertThat(w.failed()).isEqualTo(1);
        assertThat(w.status().completedIndexes()).isEqualTo("0-2");
        assertThat(condition(w, JobCondition.COMPLETE)).isNotNull();
    }

    @Test
    void indexedRepeatedCompletedIndex() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(3).completionMode(JobSpec.INDEXED)));
        w.add(FakeWorld.withIndex(w.pod("Succeeded"), 0))
                .add(FakeWorld.withIndex(w.pod("Succeeded"), 1))
                .add(FakeWorld.withIndex(w.pod("Succeeded"), 1));
        w.sync();
        assertThat(w.created)
                .extracting(p -> p.metadata().annotations().get(Job.COMPLETION_INDEX_ANNOTATION))
                .containsExactly("2");
        assertThat(w.succeeded()).isEqualTo(2);
        assertThat(w.status().completedIndexes()).isEqualTo("0,1");
    }

    @Test
    void indexedSomeRunningSomeCompleted() {
        FakeWorld w = new FakeWorld()
                .with(job(
                        JobSpecBuilder.builder().parallelism(8).completions(20).completionMode(JobSpec.INDEXED)));
        w.add(FakeWorld.withIndex(w.pod("Running"), 0)).add(FakeWorld.withIndex(w.pod("Pending"), 3));
        for (int ix : new int[] {2, 4, 5, 7, 8, 9}) {
            w.add(FakeWorld.withIndex(w.pod("Succeeded"), ix));
        }
        w.sync();
        // Active indexes {0, 3}; succeeded {2,4,5,7,8,9}: create the 6 lowest free indexes.
        assertThat(w.created)
                .extracting(p -> p.metadata().annotations().get(Job.COMPLETION_INDEX_ANNOTATION))
                .containsExactlyInAnyOrder("1", "6", "10", "11", "12", "13");
        assertThat(w.active()).isEqualTo(8);
        assertThat(w.succeeded()).isEqualTo(6);
        assertThat(w.status().completedIndexes()).isEqualTo("2,4,5,7-9");
    }

    @Test
    void indexedDuplicateAndInvalidIndexesAreDeletedWithoutCreations() {
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(3).completions(3).completionMode(JobSpec.INDEXED)));
        w.add(FakeWorld.withIndex(w.pod("Running"), 0))
                .add(FakeWorld.withIndex(w.pod("Running"), 0))
                .add(FakeWorld.withIndex(w.pod("Running"), 7))
                .add(w.pod("Running"));
        w.sync();
        assertThat(w.deleted).hasSize(3);
        assertThat(w.created).isEmpty();
    }

    @Test
    void podFailurePolicyFailJob() {
        PodFailurePolicy policy = new PodFailurePolicy(List.of(
                new PodFailurePolicyRule(
                        PodFailurePolicyRule.IGNORE,
                        new PodFailurePolicyOnExitCodesRequirement(null, "In", List.of(1, 2, 3)),
                        null),
                new PodFailurePolicyRule(
                        PodFailurePolicyRule.FAIL_JOB,
                        new PodFailurePolicyOnExitCodesRequirement(null, "In", List.of(5, 6, 7)),
                        null)));
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder().parallelism(2).completions(2).podFailurePolicy(policy)));
        Pod failed = FakeWorld.withExit(w.pod("Failed"), 5);
        failed = failed.withMetadata(failed.metadata().withName("mypod-0"));
        w.add(failed).add(1, "Running");
        w.sync();
        String message =
                "Container main for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1";
        assertThat(condition(w, JobCondition.FAILURE_TARGET).message()).isEqualTo(message);
        JobCondition jobFailed = condition(w, JobCondition.FAILED);
        assertThat(jobFailed.reason()).isEqualTo("PodFailurePolicy");
        assertThat(jobFailed.message()).isEqualTo(message);
        assertThat(w.failed()).isEqualTo(2); // the running pod is killed and counted too
        // The interim condition was written before any finalizer was removed.
        assertThat(w.statusWrites.get(0).status().condition(JobCondition.FAILURE_TARGET))
                .isNotNull();
    }

    @Test
    void podFailurePolicyIgnoreDoesNotCount() {
        PodFailurePolicy policy = new PodFailurePolicy(List.of(new PodFailurePolicyRule(
                PodFailurePolicyRule.IGNORE,
                new PodFailurePolicyOnExitCodesRequirement(null, "In", List.of(1, 2, 3)),
                null)));
        FakeWorld w = new FakeWorld()
                .with(job(JobSpecBuilder.builder()
                        .parallelism(1)
                        .completions(1)
                        .backoffLimit(0)
                        .podFailurePolicy(policy)));
        w.add(FakeWorld.withExit(w.pod("Failed"), 2));
        w.sync();
        assertThat(condition(w, JobCondition.FAILED)).isNull();
        assertThat(w.failed()).isZero();
        assertThat(w.created).hasSize(1);
    }

    @Test
    void finishedPodsAreCountedOnceAcrossACrashBetweenSteps() {
        // A previous controller wrote the UID into uncountedTerminatedPods, then crashed before the
        // finalizer removal; the pod still has its finalizer.
        FakeWorld w = new FakeWorld().with(job(1, 2));
        Pod done = w.pod("Succeeded");
        w.add(done);
        w.with(w.job.withStatus(JobStatusBuilder.builder()
                .startTime(w.clock.now())
                .uncountedTerminatedPods(new io.kplane.api.batch.UncountedTerminatedPods(
                        List.of(done.metadata().uid()), null))
                .build()));
        w.sync();
        assertThat(w.succeeded()).isEqualTo(1);
        assertThat(w.status().uncountedTerminatedPods().succeeded()).isNull();
        // And the pod, now without finalizer, is not counted again.
        w.pods.set(0, done.withMetadata(done.metadata().withFinalizers(List.of())));
        w.sync();
        assertThat(w.succeeded()).isEqualTo(1);
    }

    @Test
    void deletedPodWithFinalizerCountsAsFailed() {
        FakeWorld w = new FakeWorld().with(job(1, 1));
        Pod pod = w.pod("Running");
        w.add(pod.withMetadata(pod.metadata().withDeletionTimestamp(w.clock.now())));
        w.sync();
        assertThat(w.failed()).isEqualTo(1);
    }

    @Test
    void podsOfAnotherJobUidAreIgnored() {
        FakeWorld w = new FakeWorld().with(job(2, 2));
        Pod foreign = w.pod("Running");
        io.kplane.api.meta.OwnerReference other =
                foreign.metadata().ownerReferences().get(0).withUid("other-uid");
        w.add(foreign.withMetadata(foreign.metadata().withOwnerReferences(List.of(other))));
        w.sync();
        assertThat(w.created).hasSize(2);
        assertThat(w.deleted).isEmpty();
    }

    @Test
    void statusIsWrittenOnlyWhenChanged() {
        FakeWorld w = new FakeWorld().with(job(2, 5)).add(2, "Running");
        w.sync();
        int writes = w.statusWrites.size();
        w.sync();
        assertThat(w.statusWrites).hasSize(writes);
    }

    /**
     * After the sync that finished a Job, the informer may still hold the Job as it was (running) while
     * the finished pods are already gone: a sync from that cache must not start new pods.
     */
    @Test
    void aCacheThatHasNotSeenTheFinishingWriteStartsNoNewPods() {
        FakeWorld w = new FakeWorld().with(job(1, 1));
        Job running = w.job;
        w.add(1, "Succeeded");
        JobSyncer syncer = w.syncer();
        assertThat(syncOnce(syncer)).isNull();
        assertThat(w.job.isFinished()).isTrue();

        w.job = running; // the stale cache: no Complete condition, and the counted pod deleted
        w.pods.clear();
        assertThat(syncOnce(syncer)).isNull();
        assertThat(w.created).isEmpty();

        w.job = w.statusWrites.get(w.statusWrites.size() - 1); // the cache catches up
        assertThat(syncOnce(syncer)).isNull();
        assertThat(w.created).isEmpty();
    }

    private static Exception syncOnce(JobSyncer syncer) {
        try {
            syncer.sync(FakeWorld.NS + "/foobar");
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
