package io.kplane.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.batch.CronSchedule;
import io.kplane.controllers.cronjob.ScheduleMath.Missed;
import io.kplane.controllers.cronjob.ScheduleMath.Recent;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Cases from Kubernetes' cronjob utils_test.go (TestMostRecentScheduleTime, TestNextScheduleTime, ...). */
class ScheduleMathTest {
    /** Thursday 2016-05-19 10:00 UTC, upstream's topOfTheHour(). */
    static final Instant TOP = Instant.parse("2016-05-19T10:00:00Z");

    static Instant at(Duration afterTop) {
        return TOP.plus(afterTop);
    }

    static Duration h(long hours) {
        return Duration.ofHours(hours);
    }

    static Duration m(long minutes) {
        return Duration.ofMinutes(minutes);
    }

    static Stream<Arguments> mostRecentCases() {
        return Stream.of(
                // name, schedule, creation, lastSchedule, sds, includeSds, now, expectedEarliest, expectedRecent,
                // missed
                Arguments.of(
                        "now before next schedule",
                        "0 * * * *",
                        TOP,
                        null,
                        null,
                        false,
                        TOP.plusSeconds(30),
                        TOP,
                        null,
                        Missed.NONE),
                Arguments.of(
                        "now just after next schedule",
                        "0 * * * *",
                        TOP,
                        null,
                        null,
                        false,
                        at(m(61)),
                        TOP,
                        at(m(60)),
                        Missed.NONE),
                Arguments.of(
                        "missed 5 schedules",
                        "0 * * * *",
                        TOP.plusSeconds(10),
                        null,
                        null,
                        false,
                        at(m(301)),
                        TOP.plusSeconds(10),
                        at(m(300)),
                        Missed.FEW),
                Arguments.of(
                        "complex schedule",
                        "30 6-16/4 * * 1-5",
                        TOP,
                        at(m(30)),
                        null,
                        false,
                        at(h(24).plus(m(31))),
                        at(m(30)),
                        at(h(24).plus(m(30))),
                        Missed.FEW),
                // Upstream's estimate returns nil here; the exact answer is Friday 12:30.
                Arguments.of(
                        "another complex schedule",
                        "30 10,11,12 * * 1-5",
                        TOP,
                        at(m(30)),
                        null,
                        false,
                        at(h(30).plus(m(30))),
                        at(m(30)),
                        at(h(26).plus(m(30))),
                        Missed.FEW),
                Arguments.of(
                        "complex schedule with longer diff between executions",
                        "30 6-16/4 * * 1-5",
                        TOP,
                        at(m(30)),
                        null,
                        false,
                        at(h(96).plus(m(31))),
                        at(m(30)),
                        at(h(96).plus(m(30))),
                        Missed.FEW),
                Arguments.of(
                        "complex schedule with shorter diff between executions",
                        "30 6-16/4 * * 1-5",
                        TOP,
                        null,
                        null,
                        false,
                        at(h(24).plus(m(31))),
                        TOP,
                        at(h(24).plus(m(30))),
                        Missed.FEW),
                Arguments.of(
                        "earliestTime being CreationTimestamp and LastScheduleTime",
                        "0 * * * *",
                        TOP,
                        TOP,
                        null,
                        false,
                        TOP.plusSeconds(30),
                        TOP,
                        null,
                        Missed.NONE),
                Arguments.of(
                        "earliestTime being LastScheduleTime",
                        "*/5 * * * *",
                        TOP,
                        at(m(30)),
                        null,
                        false,
                        at(m(31)),
                        at(m(30)),
                        null,
                        Missed.NONE),
                Arguments.of(
                        "earliestTime being LastScheduleTime (within StartingDeadlineSeconds)",
                        "*/5 * * * *",
                        TOP,
                        at(m(30)),
                        60L,
                        false,
                        at(m(31)),
                        at(m(30)),
                        null,
                        Missed.NONE),
                Arguments.of(
                        "earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)",
                        "*/5 * * * *",
                        TOP,
                        at(m(30)),
                        60L,
                        true,
                        at(m(32)),
                        at(m(31)),
                        null,
                        Missed.NONE),
                Arguments.of(
                        "@every schedule",
                        "@every 1h",
                        TOP.minus(m(59)),
                        at(m(1)),
                        10L,
                        false,
                        at(h(7 * 24)),
                        at(m(1)),
                        at(h(6 * 24 + 23).plus(m(1))),
                        Missed.MANY),
                Arguments.of(
                        "hourly, a week late: too many missed, the latest still found",
                        "1 * * * *",
                        TOP,
                        at(m(1)),
                        null,
                        false,
                        at(h(7 * 24)),
                        at(m(1)),
                        at(h(6 * 24 + 23).plus(m(1))),
                        Missed.MANY));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mostRecentCases")
    void mostRecentScheduleTime(
            String name,
            String schedule,
            Instant creation,
            Instant last,
            Long sds,
            boolean includeSds,
            Instant now,
            Instant expectedEarliest,
            Instant expectedRecent,
            Missed missed)
            throws Exception {
        Recent recent =
                ScheduleMath.mostRecent(CronSchedule.parse(schedule, null), creation, last, sds, now, includeSds);
        assertThat(recent.earliest()).isEqualTo(expectedEarliest);
        assertThat(recent.mostRecent()).isEqualTo(expectedRecent);
        assertThat(recent.missed()).isEqualTo(missed);
    }

    @Test
    void rogueScheduleThatNeverFiresIsAnError() {
        assertThatThrownBy(() -> ScheduleMath.mostRecent(
                        CronSchedule.parse("59 23 31 2 *", null), TOP.plusSeconds(10), null, null, at(h(1)), true))
                .isInstanceOf(ScheduleMath.InvalidScheduleException.class)
                .hasMessage("time difference between two schedules is less than 1 second");
    }

    @Test
    void manyMissedMinutesAcrossYearsStayCheap() throws Exception {
        Instant now = Instant.parse("2026-03-04T05:06:30Z");
        Recent recent = ScheduleMath.mostRecent(
                CronSchedule.parse("* * * * *", null), Instant.parse("2016-01-01T00:00:00Z"), null, null, now, true);
        assertThat(recent.missed()).isEqualTo(Missed.MANY);
        assertThat(recent.mostRecent()).isEqualTo(Instant.parse("2026-03-04T05:06:00Z"));
    }

    static Stream<Arguments> durationCases() {
        return Stream.of(
                Arguments.of(
                        "complex schedule skipping weekend",
                        "30 6-16/4 * * 1-5",
                        at(m(30)),
                        at(h(24).plus(m(31))),
                        h(3).plus(m(59))),
                Arguments.of(
                        "another complex schedule skipping weekend",
                        "30 10,11,12 * * 1-5",
                        at(m(30)),
                        at(h(30).plus(m(30))),
                        h(66)),
                Arguments.of(
                        "once a week cronjob, missed two runs",
                        "0 12 * * 4",
                        at(h(2)),
                        at(h(19 * 24 + 1).plus(m(30))),
                        h(48).plus(m(30))),
                Arguments.of("no previous run of a cronjob", "0 12 * * 5", null, at(h(6)), h(20)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durationCases")
    void nextScheduleTimeDuration(String name, String schedule, Instant last, Instant now, Duration expected) {
        assertThat(ScheduleMath.untilNextSchedule(CronSchedule.parse(schedule, null), TOP, last, now))
                .contains(expected.plus(ScheduleMath.NEXT_SCHEDULE_DELTA));
    }

    /** TestNextScheduleTime, hourly on the hour: which time is owed a Job (a null {@code missed} is not checked). */
    static Stream<Arguments> hourlyCases() {
        Instant t1 = TOP;
        Instant t2 = TOP.plus(h(1));
        return Stream.of(
                // name, creation, lastSchedule, sds, now, expectedRecent, expectedMissed
                Arguments.of(
                        "no known start times, none needed yet",
                        t1.minus(m(10)),
                        null,
                        null,
                        t1.minus(m(7)),
                        null,
                        null),
                Arguments.of(
                        "no known start times, one needed", t1.minus(m(10)), null, null, t1.plusSeconds(2), t1, null),
                Arguments.of(
                        "known last schedule time, no start needed",
                        t1.minus(m(10)),
                        t1,
                        null,
                        t1.plus(m(2)),
                        null,
                        null),
                Arguments.of(
                        "known last schedule time, a start needed", t1.minus(m(10)), t1, null, t2.plus(m(5)), t2, null),
                Arguments.of(
                        "two starts missed: only the most recent is run",
                        t1.minus(h(2)),
                        t1.minus(h(1)),
                        null,
                        t2.plus(m(5)),
                        t2,
                        null),
                Arguments.of(
                        "way ahead of the last start, no deadline",
                        t1.minus(h(2)),
                        t1.minus(h(1)),
                        null,
                        t2.plus(h(240)),
                        t2.plus(h(240)),
                        Missed.MANY),
                Arguments.of(
                        "way ahead, but a short deadline bounds the search",
                        t1.minus(h(2)),
                        t1.minus(h(1)),
                        7200L,
                        t2.plus(h(240)),
                        t2.plus(h(240)),
                        Missed.FEW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hourlyCases")
    void nextScheduleTimeHourly(
            String name, Instant creation, Instant last, Long sds, Instant now, Instant expectedRecent, Missed missed)
            throws Exception {
        Recent recent = ScheduleMath.mostRecent(CronSchedule.parse("0 * * * *", null), creation, last, sds, now, true);
        assertThat(recent.mostRecent()).isEqualTo(expectedRecent);
        if (missed != null) {
            assertThat(recent.missed()).isEqualTo(missed);
        }
    }
}
