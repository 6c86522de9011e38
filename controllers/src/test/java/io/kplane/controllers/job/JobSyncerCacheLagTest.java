package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Pod;
import io.kplane.client.ApiException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sync that starts before the informer has delivered the previous sync's status write: it builds on
 * that write's answer instead of the cache's older Job, so its status writes do not conflict (which
 * would redo the sync after a back-off) and it counts what the server already has.
 */
class JobSyncerCacheLagTest {
    private static final String KEY = FakeWorld.NS + "/foobar";
    /** The revision another writer's update of the Job gets, after our first status write ("2"). */
    private static final String THEIR_VERSION = "3";

    private final FakeWorld w = new FakeWorld().with(FakeWorld.job(2, 4));
    /** The API server's Job: a status write must carry its resourceVersion, or it gets 409. */
    private Job server = w.job;
    /** The informer's copy, moved forward only when a test says the informer delivered. */
    private Job cache = w.job;

    private final AtomicInteger conflicts = new AtomicInteger();
    /** Runs while the syncer lists pods (after the list is taken): events the informer delivers meanwhile. */
    private Runnable whileListingPods = () -> {};

    private final JobSyncer syncer = w.syncer(
            new JobSyncer.Source() {
                @Override
                public Job cachedJob(String namespace, String name) {
                    return cache;
                }

                @Override
                public List<Pod> candidatePods(Job job) {
                    List<Pod> listed = List.copyOf(w.pods);
                    whileListingPods.run();
                    return listed;
                }

                @Override
                public Job freshJob(String namespace, String name) {
                    return server;
                }
            },
            job -> {
                synchronized (this) {
                    if (!job.metadata()
                            .resourceVersion()
                            .equals(server.metadata().resourceVersion())) {
                        conflicts.incrementAndGet();
                        throw new ApiException(409, "Conflict", "the object has been modified", null);
                    }
                    long next = Long.parseLong(server.metadata().resourceVersion()) + 1;
                    server = job.withMetadata(job.metadata().withResourceVersion(Long.toString(next)));
                    return server;
                }
            });

    @AfterEach
    void stopWriters() {
        w.writers.shutdownNow();
    }

    /** The first sync's pods were seen by the pod informer and have finished; the Job informer lags. */
    private void podsOfTheFirstSyncFinished() {
        assertThat(w.created).hasSize(2);
        w.expectations.creationObserved(KEY);
        w.expectations.creationObserved(KEY);
        w.add(2, "Succeeded");
    }

    @Test
    void aSyncBeforeTheInformerDeliversOurStatusWriteStartsFromThatWrite() throws Exception {
        syncer.sync(KEY); // creates 2 pods, writes active=2: the server is at "2", the cache still at "1"
        assertThat(server.metadata().resourceVersion()).isEqualTo("2");
        podsOfTheFirstSyncFinished();

        syncer.sync(KEY); // must not throw 409

        assertThat(conflicts).hasValue(0);
        assertThat(server.status().succeeded()).isEqualTo(2);
        assertThat(server.status().active()).isEqualTo(2);
        var uncounted = server.status().uncountedTerminatedPods();
        assertThat(uncounted == null
                        || uncounted.succeeded() == null
                        || uncounted.succeeded().isEmpty())
                .as("every finished pod counted: %s", uncounted)
                .isTrue();
        assertThat(w.finalizersRemoved).hasSize(2);
        assertThat(w.created).hasSize(4);
    }

    @Test
    void aFinalizerRemovalObservedWhilePodsAreListedIsNotCountedTwice() throws Exception {
        syncer.sync(KEY);
        podsOfTheFirstSyncFinished();
        syncer.sync(KEY); // counts both pods: succeeded 2, their finalizer removals expected
        assertThat(server.status().succeeded()).isEqualTo(2);
        assertThat(w.finalizerExpectations.expectedUids(KEY)).hasSize(2);

        // The pod informer delivers both removals right after the next sync took its pod list, which
        // still shows the finalizers; the Job informer still lags, so the sync builds on our own write.
        whileListingPods = () -> w.pods.forEach(p -> w.finalizerExpectations.finalizerRemovalObserved(
                KEY, p.metadata().uid()));
        syncer.sync(KEY);

        assertThat(conflicts).hasValue(0);
        assertThat(server.status().succeeded()).isEqualTo(2);
    }

    @Test
    void aNewerJobInTheCacheWinsOverOurOwnWrite() throws Exception {
        syncer.sync(KEY);
        // Someone else wrote the Job after us (parallelism 1) and the informer delivered it.
        Job theirs = server.withSpec(server.spec().withParallelism(1));
        server = theirs.withMetadata(theirs.metadata().withResourceVersion(THEIR_VERSION));
        cache = server;
        podsOfTheFirstSyncFinished();

        syncer.sync(KEY);

        assertThat(conflicts).hasValue(0);
        assertThat(server.status().succeeded()).isEqualTo(2);
        assertThat(w.created).hasSize(3); // the cache's parallelism 1, not our write's 2
    }

    @Test
    void aJobRecreatedUnderTheSameNameIsReadFromTheCache() throws Exception {
        syncer.sync(KEY);
        Job recreated = FakeWorld.job(2, 4);
        recreated = recreated.withMetadata(recreated.metadata().withUid("job-uid-2"));
        server = recreated;
        cache = recreated;
        w.expectations.creationObserved(KEY);
        w.expectations.creationObserved(KEY);

        syncer.sync(KEY); // our write of the old Job ("2") must not be the base: the server has "1"

        assertThat(conflicts).hasValue(0);
        assertThat(server.metadata().uid()).isEqualTo("job-uid-2");
        assertThat(server.status().active()).isEqualTo(2);
    }
}
