package io.kplane.api.batch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CronScheduleTest {

    @ParameterizedTest(name = "{0} after {1}")
    @CsvSource(delimiter = '|', value = {
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
        assertThat(s.lastAtOrBefore(Instant.parse("2024-03-01T10:25:00Z"))).contains(Instant.parse("2024-03-01T10:20:00Z"));
        assertThat(s.lastAtOrBefore(Instant.parse("2024-03-01T10:20:00Z"))).contains(Instant.parse("2024-03-01T10:20:00Z"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
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
}
