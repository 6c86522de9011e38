package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.lens.LensRecord;
import io.kplane.client.lens.LensRecorder;
import io.kplane.client.lens.SyncSummary;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.RecordingEvents;
import io.kplane.controllers.testing.TestObjects;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CronJob controller's sync records (docs/lens.md, "CronJob sync records") against a real API
 * server on PostgreSQL, the controller on a {@link FakeClock}: what each sync saw (cluster time in the
 * CronJob's zone, schedule, lastScheduleTime, active Jobs, deadline, suspend), its decision in
 * upstream's words (created / skipped with {@code JobAlreadyActive} / TooManyMissedTimes with the count
 * / suspended / nothing_due), the writes with their resourceVersions, the events and the requeue at the
 * next schedule time.
 */
class CronJobControllerLensTest extends ApiServerTest {
    private final String ns = "default";
    private FakeClock clock;
    private LensRecorder lens;
    private SharedInformerFactory informers;
    private CronJobController controller;

    @BeforeEach
    void start() throws Exception {
        clock = new FakeClock(Instant.now());
        lens = new LensRecorder("cronjob-controller", "test", clock, 65_536, 1_000_000);
        informers = new SharedInformerFactory(client, Clock.system()).withLens(lens);
        controller = new CronJobController(
                informers.informerFor(CronJob.class),
                informers.informerFor(Job.class),
                new ApiJobControl(client),
                new RecordingEvents(),
                clock,
                2);
        informers.start();
        controller.start(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        controller.stop(Duration.ofSeconds(5));
        informers.shutdown();
        for (CronJob cj : client.cronJobs().inNamespace(ns).list()) {
            client.cronJobs().inNamespace(ns).delete(cj.name(), DeleteOptions.propagation("Background"));
        }
    }

    @Test
    void aCreatedRunIsRecordedWithWhatTheSyncSawItsWriteAndTheNextScheduleTime() throws Exception {
        String name = uniqueName("lens-cj");
        CronJob cj = client.cronJobs().inNamespace(ns).create(TestObjects.cronJob(ns, name, s -> s.schedule(
                        "*/5 * * * *")
                .timeZone("Europe/Berlin")
                .startingDeadlineSeconds(120L)));
        Instant tick = nextFiveMinutes(cj.metadata().creationTimestamp());
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        clock.setTime(tick.plusSeconds(1));

        LensRecord created = awaitSync(ns + "/" + name, "created");
        SyncSummary sync = created.sync();
        String jobName = name + "-" + tick.getEpochSecond() / 60;
        assertThat(created.controller()).isEqualTo("cronjob");
        assertThat(created.resource()).isEqualTo("cronjobs");
        assertThat(created.uid()).isEqualTo(cj.uid());
        // the fake clock fires the requeue timer at its due time (the tick) or after the jump (tick + 1 s)
        Instant now = Instant.parse((String) sync.saw().get("now"));
        assertThat(now).isBetween(tick, tick.plusSeconds(1));
        assertThat(sync.saw())
                .containsEntry("schedule", "*/5 * * * *")
                .containsEntry("timeZone", "Europe/Berlin")
                .containsEntry("concurrencyPolicy", "Allow")
                .containsEntry("suspend", false)
                .containsEntry("startingDeadlineSeconds", 120L)
                .containsEntry("lastScheduleTime", "none")
                .containsEntry("active", 0)
                .containsEntry("scheduledTime", tick.toString())
                .containsEntry("job", jobName)
                .containsEntry(
                        "nextScheduleTime", tick.plus(Duration.ofMinutes(5)).toString());
        assertThat((String) sync.saw().get("nowLocal"))
                .endsWith(" Europe/Berlin")
                .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+0[12]:00 .*");
        assertThat(sync.reason()).isEqualTo("created Job " + jobName + " for the scheduled time " + tick);
        assertThat(sync.writes())
                .extracting(SyncSummary.Write::verb, SyncSummary.Write::resource, SyncSummary.Write::key)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("create", "jobs", ns + "/" + jobName),
                        org.assertj.core.groups.Tuple.tuple("update status", "cronjobs", ns + "/" + name));
        assertThat(sync.writes()).allSatisfy(w -> assertThat(w.rv()).isNotBlank());
        assertThat(sync.events()).extracting(SyncSummary.EventNote::reason).containsExactly("SuccessfulCreate");
        // the requeue is the wait until the next schedule time, on the controller's clock
        assertThat(sync.requeueAfterMs())
                .isEqualTo(
                        Duration.between(now, tick.plus(Duration.ofMinutes(5))).toMillis());

        // the Job's ADDED event brings the key back: nothing is due, the Job for the tick exists
        LensRecord again = awaitSync(ns + "/" + name, "nothing_due", r -> tick.toString()
                .equals(r.sync().saw().get("lastScheduleTime")));
        assertThat(again.sync().saw())
                .containsEntry("active", 1)
                .containsEntry("activeJobs", jobName)
                .containsEntry("lastScheduleTime", tick.toString());
    }

    @Test
    void forbidRecordsTheSkippedTickWithJobAlreadyActive() throws Exception {
        String name = uniqueName("lens-forbid");
        CronJob cj = client.cronJobs()
                .inNamespace(ns)
                .create(TestObjects.cronJob(ns, name, s -> s.concurrencyPolicy("Forbid")));
        Instant m1 = cj.metadata()
                .creationTimestamp()
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(Duration.ofMinutes(1));
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        clock.setTime(m1.plusMillis(150));
        awaitSync(ns + "/" + name, "created");
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        clock.setTime(m1.plusSeconds(60).plusMillis(150));

        LensRecord skipped = awaitSync(ns + "/" + name, "skipped");
        String first = name + "-" + m1.getEpochSecond() / 60;
        assertThat(skipped.sync().reason())
                .startsWith("JobAlreadyActive: concurrencyPolicy Forbid and Job(s) " + first
                        + " still running: no Job for the scheduled time " + m1.plusSeconds(60));
        assertThat(skipped.sync().saw())
                .containsEntry("concurrencyPolicy", "Forbid")
                .containsEntry("active", 1)
                .containsEntry("activeJobs", first)
                .containsEntry("scheduledTime", m1.plusSeconds(60).toString());
        assertThat(skipped.sync().events())
                .extracting(SyncSummary.EventNote::reason)
                .containsExactly("JobAlreadyActive");
        assertThat(skipped.sync().writes()).noneMatch(w -> w.verb().equals("create"));
    }

    @Test
    void aJumpOverMoreThanAHundredTimesSaysTooManyMissedTimesWithTheCount() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        clock.setTime(created.plus(Duration.ofHours(3)));
        String name = uniqueName("lens-missed");
        client.cronJobs().inNamespace(ns).create(TestObjects.cronJob(ns, name, s -> s));

        LensRecord sync = awaitSync(ns + "/" + name, "created");
        // three hours of minutes since the creation (creation time from the API server's clock: 179-181)
        long missed = ((Number) sync.sync().saw().get("missedSchedules")).longValue();
        assertThat(missed).isBetween(179L, 181L);
        assertThat(sync.sync().reason())
                .startsWith("TooManyMissedTimes (" + missed
                        + " missed, more than 100; only the most recent runs): created Job");
        assertThat(sync.sync().events())
                .extracting(SyncSummary.EventNote::reason)
                .containsExactly("TooManyMissedTimes", "SuccessfulCreate");
    }

    @Test
    void aSuspendedCronJobSaysSo() {
        String name = uniqueName("lens-suspended");
        client.cronJobs().inNamespace(ns).create(TestObjects.cronJob(ns, name, s -> s.suspend(true)));
        LensRecord sync = awaitSync(ns + "/" + name, "suspended");
        assertThat(sync.sync().saw()).containsEntry("suspend", true);
        assertThat(sync.sync().requeueAfterMs()).isNull();
    }

    private LensRecord awaitSync(String key, String decision) {
        return awaitSync(key, decision, r -> true);
    }

    private LensRecord awaitSync(String key, String decision, java.util.function.Predicate<LensRecord> also) {
        return await().atMost(Duration.ofSeconds(15))
                .until(
                        () -> lens.syncsOf(key).stream()
                                .filter(r -> decision.equals(r.sync().decision()) && also.test(r))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
    }

    private static Instant nextFiveMinutes(Instant t) {
        Instant m = t.truncatedTo(ChronoUnit.MINUTES);
        long minute = m.getEpochSecond() / 60;
        return Instant.ofEpochSecond((minute / 5 + 1) * 5 * 60);
    }
}
