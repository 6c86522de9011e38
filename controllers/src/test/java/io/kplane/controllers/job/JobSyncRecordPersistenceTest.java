package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.ResourceTypes;
import io.kplane.api.batch.Job;
import io.kplane.api.lens.SyncRecord;
import io.kplane.api.lens.SyncRecordEntry;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncRecordPersister;
import io.kplane.client.lens.SyncSummary;
import io.kplane.client.time.Clock;
import io.kplane.controllers.gc.GarbageCollector;
import io.kplane.controllers.testing.ApiServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Job controller's sync records persisted as SyncRecords (docs/lens.md) against the real API
 * server and PostgreSQL: a finished Job's {@code pods_created} sync is stored with its triggers and
 * writes, owned by the Job; a restarted controller (new process state: new lens, new persister)
 * continues the stored history; deleting the Job lets the garbage collector delete its records.
 */
class JobSyncRecordPersistenceTest extends ApiServerTest {
    private static final JobSyncConfig FAST = JobSyncConfig.defaults()
            .withBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
            .withPodEventBatchPeriod(Duration.ofMillis(20));

    @Test
    void recordsAreStoredSurviveARestartAndGoWithTheirJob() throws Exception {
        String name = uniqueName("persisted");
        ResourceClient<SyncRecord> records =
                client.resource(ResourceTypes.SYNCRECORDS, SyncRecord.class).inNamespace("default");
        String recordName = name + ".job.job";
        Job job;
        Instant restartedAt;
        try (FakeKubelet kubelet = FakeKubelet.start(client, "default", name, (k, pod, n) -> k.succeed(pod))) {
            LensRecorder lens = new LensRecorder("job-controller", "first", Clock.system());
            try (SyncRecordPersister persister = SyncRecordPersister.start(client, lens);
                    InProcessJobController controller = InProcessJobController.start(client, FAST, lens)) {
                job = client.jobs()
                        .inNamespace("default")
                        .create(JobControllerIntegrationTest.job(
                                name, "Never", s -> s.completions(2).parallelism(2)));
                await().atMost(Duration.ofSeconds(30))
                        .until(() ->
                                client.jobs().inNamespace("default").get(name).isFinished());
                // the persister writes a flush interval after a record is made: not there yet is a
                // reason to look again (find), not a failure
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(records.find(recordName))
                        .hasValueSatisfying(stored -> assertThat(stored.records())
                                .anyMatch(e -> e.reason() != null && e.reason().contains("Complete"))));
            }
            SyncRecord stored = records.get(recordName);
            assertThat(stored.target().uid()).isEqualTo(job.uid());
            assertThat(stored.metadata().ownerReferences())
                    .singleElement()
                    .satisfies(o -> assertThat(o.uid()).isEqualTo(job.uid()))
                    .satisfies(o -> assertThat(o.kind()).isEqualTo("Job"));
            assertThat(stored.metadata().labels()).containsEntry(SyncRecord.TARGET_UID_LABEL, job.uid());
            SyncRecordEntry created = stored.records().stream()
                    .filter(e -> e.decision() != null && e.decision().contains("pods_created"))
                    .findFirst()
                    .orElseThrow();
            assertThat(created.triggers()).isNotEmpty();
            assertThat(created.triggers().get(0).type()).isEqualTo("ADDED");
            assertThat(created.writes())
                    .filteredOn(w -> "create".equals(w.verb()) && "pods".equals(w.resource()))
                    .hasSize(2)
                    .allSatisfy(w -> assertThat(w.rv()).isNotBlank());
            assertThat(created.events()).anyMatch(e -> "SuccessfulCreate".equals(e.reason()));
            int before = stored.records().size();

            // restart: a new process has an empty lens; its first sync of the Job (initial list) is added
            restartedAt = Instant.now();
            LensRecorder second = new LensRecorder("job-controller", "second", Clock.system());
            try (SyncRecordPersister persister = SyncRecordPersister.start(client, second);
                    InProcessJobController controller = InProcessJobController.start(client, FAST, second)) {
                await().atMost(Duration.ofSeconds(15))
                        .untilAsserted(() -> assertThat(records.get(recordName).records())
                                .anyMatch(e -> e.time().isAfter(restartedAt)));
            }
            SyncRecord afterRestart = records.get(recordName);
            assertThat(afterRestart.records())
                    .as("the earlier syncs are kept")
                    .anyMatch(e -> e.decision() != null && e.decision().contains("pods_created"));
            assertThat(afterRestart.records().size())
                    .isBetween(Math.min(SyncRecord.MAX_RECORDS, before + 1), SyncRecord.MAX_RECORDS);
        }

        // the garbage collector deletes the records with their Job
        SharedInformerFactory informers = new SharedInformerFactory(client, Clock.system());
        GarbageCollector gc = new GarbageCollector(client, informers, Clock.system(), 2);
        informers.start();
        assertThat(informers.waitForCacheSync(Duration.ofSeconds(20))).isTrue();
        gc.startWorkers();
        try {
            client.jobs().inNamespace("default").delete(name, DeleteOptions.propagation("Background"));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> records.list(ListOptions.labelSelector(SyncRecord.TARGET_UID_LABEL + "=" + job.uid()))
                            .items()
                            .isEmpty());
        } finally {
            gc.stop(Duration.ofSeconds(5));
            informers.shutdown();
        }
    }

    /**
     * A record is not written the moment it is made (that put a lone pod's records beside the pod's own
     * binding and status write, docs/performance.md): the writer waits its interval after the first
     * record of a quiet spell too. {@code flush()} writes what is pending at once, without waiting the
     * interval out.
     */
    @Test
    void aRecordWaitsForTheIntervalAndFlushWritesItAtOnce() throws Exception {
        String name = uniqueName("interval");
        Job job = client.jobs()
                .inNamespace("default")
                .create(JobControllerIntegrationTest.job(name, "Never", s -> s.completions(1)));
        ResourceClient<SyncRecord> records =
                client.resource(ResourceTypes.SYNCRECORDS, SyncRecord.class).inNamespace("default");
        LensRecorder lens = new LensRecorder("job-controller", "interval", Clock.system());
        try (SyncRecordPersister persister =
                new SyncRecordPersister(client, lens.clock(), "job-controller", 10, Duration.ofHours(1))) {
            lens.addListener(persister);
            persister.startWriter();
            lens.record(new LensRecord(
                    0,
                    null,
                    null,
                    "job",
                    "sync",
                    "sync",
                    "jobs",
                    "default/" + name,
                    job.metadata().resourceVersion(),
                    job.uid(),
                    null,
                    new SyncSummary(
                            List.of(),
                            0,
                            Map.of("active", 0),
                            "nothing",
                            "waits",
                            List.of(),
                            List.of(),
                            0.1,
                            null,
                            null)));
            await("nothing written before the interval")
                    .during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> records.find(name + ".job.job").isEmpty() && persister.pendingObjects() == 1);
            assertThat(persister.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(records.get(name + ".job.job").records()).singleElement().satisfies(e -> assertThat(e.reason())
                    .isEqualTo("waits"));
            assertThat(persister.persistedTotal()).isEqualTo(1);
        }
    }
}
