package io.kplane.controllers.cronjob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CronScheduleTimesTest {

    private static List<Instant> next(CronScheduleTimes schedule, Instant from, int count) {
        List<Instant> times = new ArrayList<>();
        Instant t = from;
        for (int i = 0; i < count; i++) {
            t = schedule.next(t).orElseThrow();
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
        assertThat(CronScheduleTimes.parse(schedule, null).next(Instant.parse(from))).contains(Instant.parse(expected));
    }

    @Test
    void timeZoneIsHonoured() {
        CronScheduleTimes nineInTokyo = CronScheduleTimes.parse("0 9 * * *", "Asia/Tokyo");
        assertThat(nineInTokyo.next(Instant.parse("2024-06-05T00:00:00Z"))).contains(Instant.parse("2024-06-06T00:00:00Z"));
        CronScheduleTimes nineInNewYork = CronScheduleTimes.parse("0 9 * * *", "America/New_York");
        assertThat(nineInNewYork.next(Instant.parse("2024-06-05T00:00:00Z"))).contains(Instant.parse("2024-06-05T13:00:00Z"));
        assertThat(nineInNewYork.next(Instant.parse("2024-01-05T00:00:00Z"))).contains(Instant.parse("2024-01-05T14:00:00Z"));
    }

    @Test
    void springForwardSkipsWallTimesThatDoNotExist() {
        // 2024-03-10 02:00 EST jumps to 03:00 EDT in New York: 02:30 does not happen that day.
        CronScheduleTimes twoThirty = CronScheduleTimes.parse("30 2 * * *", "America/New_York");
        assertThat(next(twoThirty, Instant.parse("2024-03-09T12:00:00Z"), 2)).containsExactly(
                Instant.parse("2024-03-11T06:30:00Z"), Instant.parse("2024-03-12T06:30:00Z"));
        CronScheduleTimes halfHourly = CronScheduleTimes.parse("*/30 * * * *", "America/New_York");
        assertThat(next(halfHourly, Instant.parse("2024-03-10T06:00:00Z"), 3)).containsExactly(
                Instant.parse("2024-03-10T06:30:00Z"), // 01:30 EST
                Instant.parse("2024-03-10T07:00:00Z"), // 03:00 EDT
                Instant.parse("2024-03-10T07:30:00Z"));
    }

    @Test
    void fallBackRunsRepeatedWallTimesOncePerOffset() {
        // 2024-11-03 02:00 EDT falls back to 01:00 EST: 01:30 happens twice, as with robfig/cron.
        CronScheduleTimes oneThirty = CronScheduleTimes.parse("30 1 * * *", "America/New_York");
        assertThat(next(oneThirty, Instant.parse("2024-11-02T12:00:00Z"), 3)).containsExactly(
                Instant.parse("2024-11-03T05:30:00Z"), // 01:30 EDT
                Instant.parse("2024-11-03T06:30:00Z"), // 01:30 EST
                Instant.parse("2024-11-04T06:30:00Z"));
        CronScheduleTimes quarterly = CronScheduleTimes.parse("*/20 * * * *", "America/New_York");
        assertThat(next(quarterly, Instant.parse("2024-11-03T05:30:00Z"), 6)).containsExactly(
                Instant.parse("2024-11-03T05:40:00Z"), // 01:40 EDT
                Instant.parse("2024-11-03T06:00:00Z"), // 01:00 EST
                Instant.parse("2024-11-03T06:20:00Z"),
                Instant.parse("2024-11-03T06:40:00Z"),
                Instant.parse("2024-11-03T07:00:00Z"), // 02:00 EST
                Instant.parse("2024-11-03T07:20:00Z"));
        // Asking from inside the first pass of the overlap still finds the second 01:30.
        assertThat(oneThirty.next(Instant.parse("2024-11-03T05:45:00Z"))).contains(Instant.parse("2024-11-03T06:30:00Z"));
    }

    @Test
    void rejectsWhatCannotBeParsed() {
        assertThatThrownBy(() -> CronScheduleTimes.parse("obvious error schedule", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CronScheduleTimes.parse("@fortnightly", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CronScheduleTimes.parse("* * * * *", "Mars/Olympus")).isInstanceOf(IllegalArgumentException.class);
        assertThat(CronScheduleTimes.parse("59 23 31 2 *", null).next(Instant.parse("2024-01-01T00:00:00Z"))).isEmpty();
    }
}
