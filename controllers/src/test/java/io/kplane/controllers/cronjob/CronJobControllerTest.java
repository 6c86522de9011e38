package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpecBuilder;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.RecordingEvents;
import io.kplane.controllers.testing.TestObjects;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CronJob controller against a real API server on PostgreSQL. The controller runs on a
 * {@link FakeClock} (the informers on the real one), so each test moves to the schedule times it
 * needs instead of waiting for them.
 */
class CronJobControllerTest extends ApiServerTest {

    private FakeClock clock;
    private SharedInformerFactory informers;
    private CronJobController controller;
    private RecordingEvents events;
    private String ns;

    @BeforeEach
    void startController() throws Exception {
        // Each test gets its own namespace; the controller only looks at objects in it via keys.
        ns = "default";
        clock = new FakeClock(Instant.now());
        informers = new SharedInformerFactory(client, Clock.system());
        events = new RecordingEvents();
        controller = new CronJobController(
                informers.informerFor(CronJob.class),
                informers.informerFor(Job.class),
                new ApiJobControl(client),
                events,
                clock,
                2);
        informers.start();
        controller.start(Duration.ofSeconds(10));
    }

    @AfterEach
    void stopController() throws Exception {
        controller.stop(Duration.ofSeconds(5));
        informers.shutdown();
        // The next test's controller must see no CronJobs but its own (its fake clock has one timer).
        for (CronJob cj : client.cronJobs().inNamespace(ns).list()) {
            client.cronJobs().inNamespace(ns).delete(cj.name(), DeleteOptions.propagation("Background"));
        }
    }

    static CronJob cronJob(String ns, String name, UnaryOperator<CronJobSpecBuilder> spec) {
        return TestObjects.cronJob(ns, name, spec);
    }

    private CronJob create(CronJob cj) {
        return client.cronJobs().inNamespace(ns).create(cj);
    }

    private List<Job> jobsOf(String cronJobName) {
        return client.jobs().inNamespace(ns).list().stream()
                .filter(j -> JobsFromCronJob.isControlledByName(j, cronJobName))
                .toList();
    }

    private CronJob live(String name) {
        return client.cronJobs().inNamespace(ns).get(name);
    }

    /** The first minute boundary after {@code t}. */
    private static Instant nextMinute(Instant t) {
        return t.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
    }

    /** Moves the controller's clock to {@code t} once the controller has queued its next sync. */
    private void moveTo(Instant t) throws InterruptedException {
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        clock.setTime(t);
    }

    private void completeJob(Job job, String type, Instant at) {
        Job fresh = client.jobs().inNamespace(ns).get(job.name());
        JobCondition condition =
                new JobCondition(type, "True", at, at, type.equals("Failed") ? "BackoffLimitExceeded" : null, null);
        client.jobs()
                .inNamespace(ns)
                .updateStatus(fresh.withStatus(JobStatusBuilder.builder()
                        .conditions(List.of(condition))
                        .startTime(at.minusSeconds(5))
                        .completionTime(type.equals("Complete") ? at : null)
                        .succeeded(type.equals("Complete") ? 1 : 0)
                        .failed(type.equals("Failed") ? 1 : 0)
                        .build()));
    }

    @Test
    void everyMinuteScheduleCreatesOneJobPerMinuteExactlyAtTheScheduleTime() throws Exception {
        String name = uniqueName("every-minute");
        CronJob cj = create(cronJob(ns, name, s -> s));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());

        moveTo(m1.minusSeconds(1));
        assertThat(jobsOf(name)).isEmpty();

        clock.setTime(m1.plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);
        Job first = jobsOf(name).get(0);
        assertThat(first.name()).isEqualTo(name + "-" + m1.getEpochSecond() / 60);
        assertThat(first.metadata().annotations()).containsEntry(CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, m1.toString());
        assertThat(first.metadata().labels()).containsEntry("app", name);
        assertThat(first.metadata().controllerRef().uid()).isEqualTo(cj.uid());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            CronJob status = live(name);
            assertThat(status.status().lastScheduleTime()).isEqualTo(m1);
            assertThat(status.status().activeOrEmpty())
                    .extracting(r -> r.name())
                    .containsExactly(first.name());
        });

        moveTo(m1.plusSeconds(60).plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 2);
        assertThat(jobsOf(name))
                .extracting(Job::name)
                .containsExactlyInAnyOrder(first.name(), name + "-" + (m1.getEpochSecond() / 60 + 1));
        assertThat(events.withReason("SuccessfulCreate"))
                .extracting(e -> e.message())
                .containsExactly(
                        "Created job " + first.name(), "Created job " + name + "-" + (m1.getEpochSecond() / 60 + 1));
    }

    @Test
    void forbidSkipsARunWhileThePreviousJobIsActive() throws Exception {
        String name = uniqueName("forbid");
        CronJob cj = create(cronJob(ns, name, s -> s.concurrencyPolicy("Forbid")));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());
        moveTo(m1.plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);

        moveTo(m1.plusSeconds(60).plusMillis(150));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !events.withReason("JobAlreadyActive").isEmpty());
        assertThat(events.withReason("JobAlreadyActive").get(0).message())
                .isEqualTo("Not starting job because prior execution is running and concurrency policy is Forbid");
        assertThat(jobsOf(name)).hasSize(1);

        // The first run completes: the CronJob notices and records the success, and since the skipped
        // minute is still the latest unmet time (lastScheduleTime did not move), it runs now.
        Job first = jobsOf(name).get(0);
        String second = name + "-" + (m1.getEpochSecond() / 60 + 1);
        completeJob(first, "Complete", m1.plusSeconds(50));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            CronJob status = live(name);
            assertThat(status.status().lastSuccessfulTime()).isEqualTo(m1.plusSeconds(50));
            assertThat(status.status().activeOrEmpty())
                    .extracting(r -> r.name())
                    .containsExactly(second);
        });
        assertThat(events.withReason("SawCompletedJob"))
                .extracting(e -> e.message())
                .containsExactly("Saw completed job: " + first.name() + ", condition: Complete");
        assertThat(jobsOf(name)).extracting(Job::name).containsExactlyInAnyOrder(first.name(), second);
    }

    @Test
    void replaceDeletesTheActiveJobBeforeCreatingTheNextOne() throws Exception {
        String name = uniqueName("replace");
        CronJob cj = create(cronJob(ns, name, s -> s.concurrencyPolicy("Replace")));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());
        moveTo(m1.plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);
        String firstName = jobsOf(name).get(0).name();

        moveTo(m1.plusSeconds(60).plusMillis(150));
        String secondName = name + "-" + (m1.getEpochSecond() / 60 + 1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(jobsOf(name)).extracting(Job::name).containsExactly(secondName));
        assertThat(events.withReason("SuccessfulDelete"))
                .extracting(e -> e.message())
                .containsExactly("Deleted job " + firstName);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(live(name).status().activeOrEmpty())
                        .extracting(r -> r.name())
                        .containsExactly(secondName));
    }

    @Test
    void allowLetsRunsOverlap() throws Exception {
        String name = uniqueName("allow");
        CronJob cj = create(cronJob(ns, name, s -> s.concurrencyPolicy("Allow")));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());
        moveTo(m1.plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);
        moveTo(m1.plusSeconds(60).plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 2);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> live(name).status().activeOrEmpty().size() == 2);
    }

    @Test
    void finishedJobsBeyondTheHistoryLimitsAreDeletedOldestFirst() throws Exception {
        String name = uniqueName("history");
        CronJob cj = create(cronJob(
                ns, name, s -> s.suspend(true).successfulJobsHistoryLimit(2).failedJobsHistoryLimit(1)));
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3600);
        String[] outcomes = {"Complete", "Failed", "Complete", "Complete", "Failed"};
        for (int i = 0; i < outcomes.length; i++) {
            Job job = JobsFromCronJob.jobFor(cj, base.plusSeconds(60L * i));
            Job created = client.jobs().inNamespace(ns).create(job);
            completeJob(created, outcomes[i], base.plusSeconds(60L * i + 30));
        }
        long minute = base.getEpochSecond() / 60;
        // Any change to the CronJob triggers a sync, which cleans up.
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            CronJob fresh = live(name);
            client.cronJobs().inNamespace(ns).update(fresh.withSpec(fresh.spec().withSchedule("*/5 * * * *")));
            return true;
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(jobsOf(name))
                .extracting(Job::name)
                .containsExactlyInAnyOrder(
                        name + "-" + (minute + 2), name + "-" + (minute + 3), name + "-" + (minute + 4)));
        assertThat(events.withReason("SuccessfulDelete"))
                .extracting(e -> e.message())
                .containsExactlyInAnyOrder(
                        "Deleted job " + name + "-" + minute, "Deleted job " + name + "-" + (minute + 1));
    }

    @Test
    void suspendedCronJobsDoNotRunAndResumeWithTheMostRecentMissedTime() throws Exception {
        String name = uniqueName("suspend");
        CronJob cj = create(cronJob(ns, name, s -> s.suspend(true)));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());
        await().atMost(Duration.ofSeconds(10)).until(() -> controller != null && clock.pendingTimers() == 0);
        clock.setTime(m1.plusSeconds(150)); // two minutes missed while suspended
        assertThat(jobsOf(name)).isEmpty();

        CronJob fresh = live(name);
        client.cronJobs().inNamespace(ns).update(fresh.withSpec(fresh.spec().withSuspend(false)));
        String latest = name + "-" + (m1.getEpochSecond() / 60 + 2);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(jobsOf(name)).extracting(Job::name).containsExactly(latest));
    }

    @Test
    void aRunPastItsStartingDeadlineIsSkippedWithAnEvent() throws Exception {
        String name = uniqueName("deadline");
        CronJob cj = create(cronJob(ns, name, s -> s.suspend(true).startingDeadlineSeconds(10L)));
        Instant m1 = nextMinute(cj.metadata().creationTimestamp());
        clock.setTime(m1.plusSeconds(30));
        CronJob fresh = live(name);
        client.cronJobs().inNamespace(ns).update(fresh.withSpec(fresh.spec().withSuspend(false)));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !events.withReason("MissSchedule").isEmpty());
        assertThat(events.withReason("MissSchedule").get(0).message())
                .startsWith("Missed scheduled time to start a job: ");
        assertThat(jobsOf(name)).isEmpty();
        // The next time is inside its deadline and runs.
        moveTo(m1.plusSeconds(60).plusMillis(150));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);
    }

    @Test
    void moreThanAHundredMissedTimesWarnsButStillRunsTheMostRecent() {
        clock.setTime(Instant.now().plus(Duration.ofHours(3)));
        String name = uniqueName("missed");
        create(cronJob(ns, name, s -> s));
        await().atMost(Duration.ofSeconds(10)).until(() -> jobsOf(name).size() == 1);
        assertThat(jobsOf(name).get(0).name())
                .isEqualTo(name + "-" + clock.now().getEpochSecond() / 60);
        assertThat(events.withReason("TooManyMissedTimes"))
                .extracting(e -> e.message())
                .containsExactly(
                        "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew");
    }

    @Test
    void aScheduleEditTakesEffectImmediately() throws Exception {
        String name = uniqueName("edit");
        create(cronJob(ns, name, s -> s.schedule("0 0 1 1 *"))); // next run: next New Year
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        Instant editedAt = clock.now();
        CronJob fresh = live(name);
        client.cronJobs().inNamespace(ns).update(fresh.withSpec(fresh.spec().withSchedule("* * * * *")));
        // Walk time forward a second per poll: whenever the edit is seen, the next minute must run.
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    clock.advance(Duration.ofSeconds(1));
                    return jobsOf(name).size() == 1;
                });
        Instant scheduled =
                Instant.ofEpochSecond(Long.parseLong(jobsOf(name).get(0).name().substring(name.length() + 1)) * 60);
        assertThat(scheduled).isAfter(editedAt).isBefore(editedAt.plus(Duration.ofMinutes(3)));
    }
}
