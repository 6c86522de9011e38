package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.CronJobSpecBuilder;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobBuilder;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.batch.JobTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** TestGetJobFromTemplate2, job naming and TestByJobStartTime. */
class JobsFromCronJobTest {
    static final Instant TOP = Instant.parse("2016-05-19T10:00:00Z");

    static CronJob cronJob(String timeZone, Map<String, String> annotations) {
        ObjectMeta templateMeta = ObjectMetaBuilder.builder()
                .labels(Map.of("a", "b"))
                .annotations(annotations)
                .build();
        return new CronJob(
                null,
                null,
                ObjectMetaBuilder.builder()
                        .name("mycronjob")
                        .namespace("snazzycats")
                        .uid("1a2b3c")
                        .build(),
                CronJobSpecBuilder.builder()
                        .schedule("* * * * *")
                        .timeZone(timeZone)
                        .concurrencyPolicy("Allow")
                        .jobTemplate(new JobTemplateSpec(
                                templateMeta,
                                JobSpecBuilder.builder()
                                        .activeDeadlineSeconds(1L)
                                        .build()))
                        .build(),
                null);
    }

    @ParameterizedTest
    @CsvSource({
        ",                 2016-05-19T10:00:00Z",
        "UTC,              2016-05-19T10:00:00Z",
        "Europe/Rome,      2016-05-19T12:00:00+02:00",
        "America/New_York, 2016-05-19T06:00:00-04:00",
    })
    void jobFromTemplateCopiesMetadataAndStampsTheScheduledTime(String timeZone, String expectedStamp) {
        Job job = JobsFromCronJob.jobFor(cronJob(timeZone, Map.of("x", "y")), TOP);
        assertThat(job.name()).isEqualTo("mycronjob-24394200");
        assertThat(job.namespace()).isEqualTo("snazzycats");
        assertThat(job.metadata().labels()).isEqualTo(Map.of("a", "b"));
        assertThat(job.metadata().annotations())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("x", "y", CronJob.SCHEDULED_TIMESTAMP_ANNOTATION, expectedStamp));
        assertThat(job.metadata().ownerReferences())
                .containsExactly(new OwnerReference("batch/v1", "CronJob", "mycronjob", "1a2b3c", true, true));
        assertThat(job.spec().activeDeadlineSeconds()).isEqualTo(1L);
    }

    @Test
    void jobNamesAreMinutesSinceTheEpochSoEachScheduledTimeHasOneName() {
        CronJob cj = cronJob(null, null);
        assertThat(JobsFromCronJob.jobName(cj, TOP)).isEqualTo("mycronjob-" + TOP.getEpochSecond() / 60);
        assertThat(JobsFromCronJob.jobName(cj, TOP.plusSeconds(59))).isEqualTo(JobsFromCronJob.jobName(cj, TOP));
        assertThat(JobsFromCronJob.jobName(cj, TOP.plusSeconds(60))).isNotEqualTo(JobsFromCronJob.jobName(cj, TOP));
    }

    static Job job(String name, Instant start) {
        return JobBuilder.builder()
                .metadata(ObjectMeta.named("ns", name))
                .status(JobStatusBuilder.builder().startTime(start).build())
                .build();
    }

    @Test
    void byStartTimeOrdersStartedJobsFirstThenByName() {
        Instant now = Instant.parse("2018-01-01T02:03:04Z");
        Instant later = Instant.parse("2019-01-01T02:03:04Z");
        assertThat(sorted(job("b", null), job("a", null))).extracting(Job::name).containsExactly("a", "b");
        assertThat(sorted(job("a", null), job("b", now))).extracting(Job::name).containsExactly("b", "a");
        assertThat(sorted(job("a", now), job("b", null))).extracting(Job::name).containsExactly("a", "b");
        assertThat(sorted(job("b", now), job("a", now))).extracting(Job::name).containsExactly("a", "b");
        assertThat(sorted(job("a", later), job("b", now))).extracting(Job::name).containsExactly("b", "a");
    }

    private static List<Job> sorted(Job... jobs) {
        List<Job> list = new ArrayList<>(List.of(jobs));
        list.sort(JobsFromCronJob.BY_START_TIME);
        return list;
    }
}
