package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobStatus;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.core.ObjectReference;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.testing.RecordingEvents;
import io.kplane.controllers.testing.TestObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table of sync decisions modelled on Kubernetes' TestControllerV2SyncCronJob: the CronJob's
 * history (never ran / ran and done / still active), its concurrency policy, suspension, deadline
 * and time zone against "now", with the creations, deletions, active count, warnings and requeue
 * delay it must produce. The API seam is an in-memory {@link JobControl}, like upstream's
 * fakeJobControl; the controller against the real API server is covered by CronJobControllerTest.
 */
class CronJobSyncerTest {
    static final String ON_THE_HOUR = "0 * * * ?";
    static final Instant JUST_BEFORE_THE_PRIOR_HOUR = Instant.parse("2016-05-19T08:59:00Z");
    static final Instant JUST_AFTER_THE_PRIOR_HOUR = Instant.parse("2016-05-19T09:01:00Z");
    static final Instant JUST_BEFORE_THE_HOUR = Instant.parse("2016-05-19T09:59:00Z");
    static final Instant JUST_AFTER_THE_HOUR = Instant.parse("2016-05-19T10:01:00Z");
    static final Instant WEEK_AFTER_THE_HOUR = Instant.parse("2016-05-26T10:00:00Z");
    static final long SHORT_DEAD = 10;
    static final long LONG_DEAD = 1_000_000;
    static final Duration DELTA = ScheduleMath.NEXT_SCHEDULE_DELTA;

    enum History {
        NEVER_RAN,
        RAN_AND_DONE,
        STILL_ACTIVE
    }

    record Case(
            String name,
            String policy,
            boolean suspend,
            String schedule,
            String timeZone,
            Long deadline,
            History history,
            Instant now,
            boolean expectCreate,
            boolean expectDelete,
            int expectActive,
            int expectWarnings,
            Duration expectRequeue) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(
            String name,
            String policy,
            String schedule,
            Long deadline,
            History history,
            Instant now,
            boolean create,
            boolean delete,
            int active,
            int warnings,
            Duration requeue) {
        return new Case(
                name, policy, false, schedule, null, deadline, history, now, create, delete, active, warnings, requeue);
    }

    static Stream<Arguments> cases() {
        Duration oneMinute = Duration.ofMinutes(1).plus(DELTA);
        Duration fiftyNine = Duration.ofMinutes(59).plus(DELTA);
        List<Case> cases = new ArrayList<>(List.of(
                c(
                        "never ran, not valid schedule",
                        "Allow",
                        "obvious error schedule",
                        null,
                        History.NEVER_RAN,
                        JUST_BEFORE_THE_HOUR,
                        false,
                        false,
                        0,
                        1,
                        null),
                new Case(
                        "never ran, not valid time zone",
                        "Allow",
                        false,
                        ON_THE_HOUR,
                        "bad timezone",
                        null,
                        History.NEVER_RAN,
                        JUST_BEFORE_THE_HOUR,
                        false,
                        false,
                        0,
                        1,
                        null),
                new Case(
                        "never ran, not time in zone",
                        "Allow",
                        false,
                        ON_THE_HOUR,
                        "America/New_York",
                        null,
                        History.NEVER_RAN,
                        JUST_BEFORE_THE_HOUR,
                        false,
                        false,
                        0,
                        0,
                        oneMinute),
                new Case(
                        "never ran, is time in zone",
                        "Allow",
                        false,
                        ON_THE_HOUR,
                        "America/New_York",
                        null,
                        History.NEVER_RAN,
                        JUST_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        0,
                        fiftyNine),
                new Case(
                        "never ran, is time in zone, but TZ is also set in schedule",
                        "Allow",
                        false,
                        "TZ=UTC " + ON_THE_HOUR,
                        "America/New_York",
                        null,
                        History.NEVER_RAN,
                        JUST_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        1,
                        fiftyNine),
                new Case(
                        "never ran, is time, suspended",
                        "Allow",
                        true,
                        ON_THE_HOUR,
                        null,
                        null,
                        History.NEVER_RAN,
                        JUST_AFTER_THE_HOUR,
                        false,
                        false,
                        0,
                        0,
                        null),
                // Upstream expects no warning here (its MissSchedule branch is unreachable); we report the skipped run.
                c(
                        "never ran, is time, past deadline",
                        "Allow",
                        ON_THE_HOUR,
                        SHORT_DEAD,
                        History.NEVER_RAN,
                        JUST_AFTER_THE_HOUR.plus(Duration.ofMinutes(SHORT_DEAD + 1)),
                        false,
                        false,
                        0,
                        1,
                        Duration.ofMinutes(48).plus(DELTA)),
                c(
                        "never ran, is time, not past deadline",
                        "Allow",
                        ON_THE_HOUR,
                        LONG_DEAD,
                        History.NEVER_RAN,
                        JUST_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        0,
                        fiftyNine),
                c(
                        "still active, not time, A",
                        "Allow",
                        ON_THE_HOUR,
                        null,
                        History.STILL_ACTIVE,
                        JUST_BEFORE_THE_HOUR,
                        false,
                        false,
                        1,
                        0,
                        oneMinute),
                c(
                        "still active, is time, A",
                        "Allow",
                        ON_THE_HOUR,
                        null,
                        History.STILL_ACTIVE,
                        JUST_AFTER_THE_HOUR,
                        true,
                        false,
                        2,
                        0,
                        fiftyNine),
                c(
                        "still active, is time, F",
                        "Forbid",
                        ON_THE_HOUR,
                        null,
                        History.STILL_ACTIVE,
                        JUST_AFTER_THE_HOUR,
                        false,
                        false,
                        1,
                        0,
                        fiftyNine),
                c(
                        "still active, is time, R",
                        "Replace",
                        ON_THE_HOUR,
                        null,
                        History.STILL_ACTIVE,
                        JUST_AFTER_THE_HOUR,
                        true,
                        true,
                        1,
                        0,
                        fiftyNine),
                c(
                        "still active, is time, past deadline",
                        "Allow",
                        ON_THE_HOUR,
                        SHORT_DEAD,
                        History.STILL_ACTIVE,
                        JUST_AFTER_THE_HOUR,
                        false,
                        false,
                        1,
                        1,
                        fiftyNine),
                c(
                        "still active, is time, not past deadline",
                        "Allow",
                        ON_THE_HOUR,
                        LONG_DEAD,
                        History.STILL_ACTIVE,
                        JUST_AFTER_THE_HOUR,
                        true,
                        false,
                        2,
                        0,
                        fiftyNine),
                c(
                        "prev ran but done, long overdue, not past deadline, A",
                        "Allow",
                        ON_THE_HOUR,
                        LONG_DEAD,
                        History.RAN_AND_DONE,
                        WEEK_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        1,
                        Duration.ofHours(1).plus(DELTA)),
                c(
                        "prev ran but done, long overdue, no deadline, A",
                        "Allow",
                        ON_THE_HOUR,
                        null,
                        History.RAN_AND_DONE,
                        WEEK_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        1,
                        Duration.ofHours(1).plus(DELTA)),
                c(
                        "prev ran but done, long overdue, past short deadline, F",
                        "Forbid",
                        ON_THE_HOUR,
                        SHORT_DEAD,
                        History.RAN_AND_DONE,
                        WEEK_AFTER_THE_HOUR,
                        true,
                        false,
                        1,
                        0,
                        Duration.ofHours(1).plus(DELTA)),
                c(
                        "this ran but done, time drifted back, F",
                        "Forbid",
                        ON_THE_HOUR,
                        null,
                        History.RAN_AND_DONE,
                        JUST_BEFORE_THE_HOUR,
                        false,
                        false,
                        0,
                        0,
                        oneMinute)));
        for (String policy : List.of("Allow", "Forbid", "Replace")) {
            cases.add(c(
                    "never ran, not time, " + policy,
                    policy,
                    ON_THE_HOUR,
                    null,
                    History.NEVER_RAN,
                    JUST_BEFORE_THE_HOUR,
                    false,
                    false,
                    0,
                    0,
                    oneMinute));
            cases.add(c(
                    "never ran, is time, " + policy,
                    policy,
                    ON_THE_HOUR,
                    null,
                    History.NEVER_RAN,
                    JUST_AFTER_THE_HOUR,
                    true,
                    false,
                    1,
                    0,
                    fiftyNine));
            cases.add(c(
                    "prev ran but done, not time, " + policy,
                    policy,
                    ON_THE_HOUR,
                    null,
                    History.RAN_AND_DONE,
                    JUST_BEFORE_THE_HOUR,
                    false,
                    false,
                    0,
                    0,
                    oneMinute));
            cases.add(c(
                    "prev ran but done, is time, " + policy,
                    policy,
                    ON_THE_HOUR,
                    null,
                    History.RAN_AND_DONE,
                    JUST_AFTER_THE_HOUR,
                    true,
                    false,
                    1,
                    0,
                    fiftyNine));
        }
        return cases.stream().map(Arguments::of);
    }

    /** Upstream's fakeJobControl and fakeCJControl in one. */
    static final class InMemoryJobControl implements JobControl {
        final Map<String, Job> jobs = new LinkedHashMap<>();
        final List<Job> created = new ArrayList<>();
        final List<String> deleted = new ArrayList<>();
        final List<CronJob> statusWrites = new ArrayList<>();

        @Override
        public Optional<Job> getJob(String namespace, String name) {
            return Optional.ofNullable(jobs.get(name));
        }

        @Override
        public Job createJob(Job job) throws AlreadyExistsException {
            if (jobs.containsKey(job.name())) {
                throw new AlreadyExistsException("jobs.batch \"" + job.name() + "\" already exists");
            }
            Job stored =
                    job.withMetadata(job.metadata().withUid("uid-" + job.name()).withResourceVersion("1"));
            jobs.put(job.name(), stored);
            created.add(stored);
            return stored;
        }

        @Override
        public boolean deleteJob(String namespace, String name) {
            deleted.add(name);
            return jobs.remove(name) != null;
        }

        @Override
        public Optional<CronJob> getCronJob(String namespace, String name) {
            return statusWrites.isEmpty() ? Optional.empty() : Optional.of(statusWrites.get(statusWrites.size() - 1));
        }

        @Override
        public CronJob updateStatus(CronJob cronJob) {
            statusWrites.add(cronJob);
            return cronJob;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void syncCronJob(Case tc) throws Exception {
        CronJob cj = TestObjects.cronJob("snazzycats", "mycronjob", s -> s.schedule(tc.schedule())
                .timeZone(tc.timeZone())
                .concurrencyPolicy(tc.policy())
                .suspend(tc.suspend())
                .startingDeadlineSeconds(tc.deadline()));
        cj = cj.withMetadata(cj.metadata().withUid("1a2b3c"));
        InMemoryJobControl control = new InMemoryJobControl();
        List<Job> jobs = new ArrayList<>();
        if (tc.history() == History.NEVER_RAN) {
            cj = cj.withMetadata(cj.metadata().withCreationTimestamp(JUST_BEFORE_THE_HOUR));
        } else {
            cj = cj.withMetadata(cj.metadata().withCreationTimestamp(JUST_BEFORE_THE_PRIOR_HOUR))
                    .withStatus(new CronJobStatus(null, JUST_AFTER_THE_PRIOR_HOUR, null));
            Job previous = JobsFromCronJob.jobFor(cj, JUST_AFTER_THE_PRIOR_HOUR);
            previous = previous.withMetadata(
                    previous.metadata().withUid("1234").withCreationTimestamp(JUST_AFTER_THE_PRIOR_HOUR));
            if (tc.history() == History.STILL_ACTIVE) {
                cj = cj.withStatus(cj.status().withActive(List.of(ObjectReference.to(previous))));
            } else {
                Instant done = JUST_AFTER_THE_PRIOR_HOUR.plusSeconds(10);
                previous = previous.withStatus(JobStatusBuilder.builder()
                        .completionTime(done)
                        .conditions(List.of(new JobCondition("Complete", "True", done, done, null, null)))
                        .build());
            }
            jobs.add(previous);
            control.jobs.put(previous.name(), previous);
        }
        RecordingEvents events = new RecordingEvents();
        CronJobSyncer syncer = new CronJobSyncer(control, events, new FakeClock(tc.now()));

        CronJobSyncer.Outcome outcome = syncer.sync(cj, jobs);

        assertThat(control.created).as("creations").hasSize(tc.expectCreate() ? 1 : 0);
        assertThat(control.deleted).as("deletions").hasSize(tc.expectDelete() ? 1 : 0);
        assertThat(events.all().stream().filter(e -> e.type().equals("Warning")).toList())
                .as("warnings")
                .hasSize(tc.expectWarnings());
        assertThat(outcome.requeueAfter()).as("requeue").isEqualTo(tc.expectRequeue());
        CronJob latest =
                control.statusWrites.isEmpty() ? cj : control.statusWrites.get(control.statusWrites.size() - 1);
        assertThat(latest.status() == null ? List.of() : latest.status().activeOrEmpty())
                .as("active")
                .hasSize(tc.expectActive());
        if (tc.expectCreate()) {
            Job job = control.created.get(0);
            assertThat(job.metadata().controllerRef().uid()).isEqualTo("1a2b3c");
            assertThat(latest.status().lastScheduleTime())
                    .isEqualTo(Instant.ofEpochSecond(Long.parseLong(job.name().substring("mycronjob-".length())) * 60));
            assertThat(events.withReason("SuccessfulCreate"))
                    .extracting(RecordingEvents.Recorded::message)
                    .containsExactly("Created job " + job.name());
        }
        if (tc.history() == History.RAN_AND_DONE) {
            assertThat(latest.status().lastSuccessfulTime()).isEqualTo(JUST_AFTER_THE_PRIOR_HOUR.plusSeconds(10));
        }
    }
}
