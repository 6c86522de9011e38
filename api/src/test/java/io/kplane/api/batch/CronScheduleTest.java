package io.kplane.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronScheduleTest {

    @ParameterizedTest(name = "{0} after {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "*/5 * * * * | 2024-03-01T10:02:30Z | 2024-03-01T10:05:00Z",
                "*/5 * * * * | 2024-03-01T10:05:00Z | 2024-03-01T10:10:00Z",
                "0 * * * * | 2024-03-01T10:00:00Z | 2024-03-01T11:00:00Z",
                "30 2 * * MON-FRI | 2024-03-01T03:00:00Z | 2024-03-04T02:30:00Z",
                "0 0 1 JAN,JUL * | 2024-03-01T00:00:00Z | 2024-07-01T00:00:00Z",
                "15,45 8-10 * * * | 2024-03-01T10:45:00Z | 2024-03-02T08:15:00Z",
                "0 0 13 * 5 | 2024-09-01T00:00:00Z | 2024-09-06T00:00:00Z",
                "0 0 * * 7 | 2024-03-01T00:00:00Z | 2024-03-03T00:00:00Z",
                "@hourly | 2024-03-01T10:59:59Z | 2024-03-01T11:00:00Z",
                "@daily | 2024-03-01T10:00:00Z | 2024-03-02T00:00:00Z",
                "@midnight | 2024-03-01T10:00:00Z | 2024-03-02T00:00:00Z",
                "@weekly | 2024-03-01T10:00:00Z | 2024-03-03T00:00:00Z",
                "@monthly | 2024-03-01T10:00:00Z | 2024-04-01T00:00:00Z",
                "@yearly | 2024-03-01T10:00:00Z | 2025-01-01T00:00:00Z",
                "@annually | 2024-03-01T10:00:00Z | 2025-01-01T00:00:00Z",
                "@every 90s | 2024-03-01T10:00:00.500Z | 2024-03-01T10:01:30Z",
            })
    void nextAfterInUtc(String schedule, String after, String expected) {
        assertThat(CronSchedule.parse(schedule, null).nextAfter(Instant.parse(after)))
                .contains(Instant.parse(expected));
    }

    @Test
    void evaluatesInTheGivenTimeZone() {
        CronSchedule s = CronSchedule.parse("0 9 * * *", "Europe/Berlin");
        // 09:00 in Berlin is 08:00 UTC in winter and 07:00 UTC in summer.
        assertThat(s.nextAfter(Instant.parse("2024-03-01T00:00:00Z"))).contains(Instant.parse("2024-03-01T08:00:00Z"));
        assertThat(s.nextAfter(Instant.parse("2024-07-01T00:00:00Z"))).contains(Instant.parse("2024-07-01T07:00:00Z"));
    }

    @Test
    void lastAtOrBefore() {
        CronSchedule s = CronSchedule.parse("*/10 * * * *", null);
        assertThat(s.lastAtOrBefore(Instant.parse("2024-03-01T10:25:00Z")))
                .contains(Instant.parse("2024-03-01T10:20:00Z"));
        assertThat(s.lastAtOrBefore(Instant.parse("2024-03-01T10:20:00Z")))
                .contains(Instant.parse("2024-03-01T10:20:00Z"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "'' | empty spec string",
                "* * * * | expected exactly 5 fields, found 4: [* * * *]",
                "* * * * * * | expected exactly 5 fields, found 6: [* * * * * *]",
                "@often | unrecognized descriptor: @often",
                "TZ=UTC 0 * * * * | cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
                "CRON_TZ=UTC 0 * * * * | cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
                "61 * * * * | ",
                "* 25 * * * | ",
                "x * * * * | ",
            })
    void rejectsInvalidSchedules(String schedule, String message) {
        var thrown = assertThatThrownBy(() -> CronSchedule.parse(schedule, null))
                .isInstanceOf(IllegalArgumentException.class);
        if (message != null) {
            thrown.hasMessage(message);
        }
    }

    @ParameterizedTest
    @CsvSource({"Mars/Olympus", "Local", "''"})
    void rejectsUnknownTimeZones(String zone) {
        assertThatThrownBy(() -> CronSchedule.parse("* * * * *", zone)).hasMessage("unknown time zone " + zone);
    }

    // What the CronJob controller relies on: wall-clock DST rules as robfig/cron has them.

    private static List<Instant> nextTimes(CronSchedule schedule, Instant from, int count) {
        List<Instant> times = new ArrayList<>();
        Instant t = from;
        for (int i = 0; i < count; i++) {
            t = schedule.nextAfter(t).orElseThrow();
            times.add(t);
        }
        return times;
    }

    @ParameterizedTest
    @CsvSource({
        "@yearly,    2024-06-01T00:00:00Z, 2025-01-01T00:00:00Z",
        "@annually,  2024-06-01T00:00:00Z, 2025-01-01T00:00:00Z",
        "@monthly,   2024-06-15T00:00:00Z, 2024-07-01T00:00:00Z",
        "@weekly,    2024-06-05T00:00:00Z, 2024-06-09T00:00:00Z",
        "@daily,     2024-06-05T10:00:00Z, 2024-06-06T00:00:00Z",
        "@midnight,  2024-06-05T10:00:00Z, 2024-06-06T00:00:00Z",
        "@hourly,    2024-06-05T10:00:00Z, 2024-06-05T11:00:00Z",
        "* * * * *,  2024-06-05T10:00:00.500Z, 2024-06-05T10:01:00Z",
        "*/15 * * * *, 2024-06-05T10:00:00Z, 2024-06-05T10:15:00Z",
        "0 9-17/4 * * MON-FRI, 2024-06-07T17:30:00Z, 2024-06-10T09:00:00Z",
        "5 4 * JAN-MAR SUN, 2024-06-05T00:00:00Z, 2025-01-05T04:05:00Z",
        "'0 0 1,15 * *', 2024-06-02T00:00:00Z, 2024-06-15T00:00:00Z",
        "0 0 13 * 5, 2024-06-02T00:00:00Z, 2024-06-07T00:00:00Z",
    })
    void macrosRangesStepsListsAndNames(String schedule, String from, String expected) {
        assertThat(CronSchedule.parse(schedule, null).nextAfter(Instant.parse(from)))
                .contains(Instant.parse(expected));
    }

    @Test
    void timeZoneIsHonoured() {
        CronSchedule nineInTokyo = CronSchedule.parse("0 9 * * *", "Asia/Tokyo");
        assertThat(nineInTokyo.nextAfter(Instant.parse("2024-06-05T00:00:00Z")))
                .contains(Instant.parse("2024-06-06T00:00:00Z"));
        CronSchedule nineInNewYork = CronSchedule.parse("0 9 * * *", "America/New_York");
        assertThat(nineInNewYork.nextAfter(Instant.parse("2024-06-05T00:00:00Z")))
                .contains(Instant.parse("2024-06-05T13:00:00Z"));
        assertThat(nineInNewYork.nextAfter(Instant.parse("2024-01-05T00:00:00Z")))
                .contains(Instant.parse("2024-01-05T14:00:00Z"));
    }

    @Test
    void springForwardSkipsWallTimesThatDoNotExist() {
        // 2024-03-10 02:00 EST jumps to 03:00 EDT in New York: 02:30 does not happen that day.
        CronSchedule twoThirty = CronSchedule.parse("30 2 * * *", "America/New_York");
        assertThat(nextTimes(twoThirty, Instant.parse("2024-03-09T12:00:00Z"), 2))
                .containsExactly(Instant.parse("2024-03-11T06:30:00Z"), Instant.parse("2024-03-12T06:30:00Z"));
        CronSchedule halfHourly = CronSchedule.parse("*/30 * * * *", "America/New_York");
        assertThat(nextTimes(halfHourly, Instant.parse("2024-03-10T06:00:00Z"), 3))
                .containsExactly(
                        Instant.parse("2024-03-10T06:30:00Z"), // 01:30 EST
                        Instant.parse("2024-03-10T07:00:00Z"), // 03:00 EDT
                        Instant.parse("2024-03-10T07:30:00Z"));
    }

    @Test
    void fallBackRunsRepeatedWallTimesOncePerOffset() {
        // 2024-11-03 02:00 EDT falls back to 01:00 EST: 01:30 happens twice, as with robfig/cron.
        CronSchedule oneThirty = CronSchedule.parse("30 1 * * *", "America/New_York");
        assertThat(nextTimes(oneThirty, Instant.parse("2024-11-02T12:00:00Z"), 3))
                .containsExactly(
                        Instant.parse("2024-11-03T05:30:00Z"), // 01:30 EDT
                        Instant.parse("2024-11-03T06:30:00Z"), // 01:30 EST
                        Instant.parse("2024-11-04T06:30:00Z"));
        CronSchedule quarterly = CronSchedule.parse("*/20 * * * *", "America/New_York");
        assertThat(nextTimes(quarterly, Instant.parse("2024-11-03T05:30:00Z"), 6))
                .containsExactly(
                        Instant.parse("2024-11-03T05:40:00Z"), // 01:40 EDT
                        Instant.parse("2024-11-03T06:00:00Z"), // 01:00 EST
                        Instant.parse("2024-11-03T06:20:00Z"),
                        Instant.parse("2024-11-03T06:40:00Z"),
                        Instant.parse("2024-11-03T07:00:00Z"), // 02:00 EST
                        Instant.parse("2024-11-03T07:20:00Z"));
        // Asking from inside the first pass of the overlap still finds the second 01:30.
        assertThat(oneThirty.nextAfter(Instant.parse("2024-11-03T05:45:00Z")))
                .contains(Instant.parse("2024-11-03T06:30:00Z"));
    }

    @Test
    void rejectsWhatCannotBeParsed() {
        assertThatThrownBy(() -> CronSchedule.parse("obvious error schedule", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CronSchedule.parse("@fortnightly", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CronSchedule.parse("* * * * *", "Mars/Olympus"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CronSchedule.parse("59 23 31 2 *", null).nextAfter(Instant.parse("2024-01-01T00:00:00Z")))
                .isEmpty();
    }

    @Test
    void onlyEverySchedulesHaveAConstantInterval() {
        assertThat(CronSchedule.parse("@every 90s", null).constantInterval())
                .contains(java.time.Duration.ofSeconds(90));
        assertThat(CronSchedule.parse("*/5 * * * *", null).constantInterval()).isEmpty();
    }
}
