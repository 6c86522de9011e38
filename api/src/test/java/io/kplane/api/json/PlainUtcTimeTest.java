package io.kplane.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlainUtcTimeTest {
    /** Instant.parse's answer, or null when it refuses the text. */
    private static Instant jdk(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @Test
    void agreesWithInstantParseOnRandomTimesOfEveryPrecision() {
        SplittableRandom random = new SplittableRandom(18);
        for (int i = 0; i < 5_000; i++) {
            // 0001-01-01 .. 9999-12-31, any nanosecond
            Instant t = Instant.ofEpochSecond(
                    random.nextLong(-62_135_596_800L, 253_402_300_799L), random.nextInt(1_000_000_000));
            for (String text : List.of(
                    t.toString(),
                    Json.formatTime(t),
                    Json.formatTime(t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)),
                    Json.formatTime(t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)))) {
                Instant fast = PlainUtcTime.parse(text);
                if (fast != null) {
                    assertThat(fast).as(text).isEqualTo(jdk(text));
                }
            }
            assertThat(PlainUtcTime.parse(Json.formatTime(t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS))))
                    .as("the plain form itself is read by hand")
                    .isNotNull();
        }
    }

    @Test
    void leavesEveryOtherShapeToInstantParse() {
        for (String text : List.of(
                "2026-11-24T10:00:60Z", // leap second: Instant.parse's own rule
                "2026-02-29T00:00:00Z", // not a leap year
                "2026-13-01T00:00:00Z",
                "2026-04-31T00:00:00Z",
                "2026-11-24T24:00:00Z",
                "2026-11-24T10:00:00.Z",
                "2026-11-24T10:00:00.1234567890Z",
                "2026-11-24T10:00:00+01:00",
                "2026-11-24t10:00:00Z",
                "2026-11-24 10:00:00Z",
                "+12026-11-24T10:00:00Z",
                "２026-11-24T10:00:00Z",
                "2026-11-24T10:00:00z",
                "")) {
            assertThat(PlainUtcTime.parse(text)).as(text).isNull();
        }
        assertThat(PlainUtcTime.parse("2024-02-29T23:59:59.5Z")).isEqualTo(Instant.parse("2024-02-29T23:59:59.5Z"));
        assertThat(PlainUtcTime.parse("2000-02-29T00:00:00Z")).isEqualTo(Instant.parse("2000-02-29T00:00:00Z"));
        assertThat(PlainUtcTime.parse("1900-02-28T00:00:00.000000001Z"))
                .isEqualTo(Instant.parse("1900-02-28T00:00:00.000000001Z"));
        assertThat(PlainUtcTime.parse("0000-03-01T00:00:00Z")).isEqualTo(Instant.parse("0000-03-01T00:00:00Z"));
    }

    @Test
    void theDeserializerStillReadsWhatItReadBefore() throws Exception {
        for (String text :
                List.of("2026-11-24T10:00:00Z", "2026-11-24T10:00:00.123456Z", "2026-11-24T11:00:00+01:00")) {
            Instant read = Json.mapper().readValue("\"" + text + "\"", Instant.class);
            assertThat(read)
                    .as(text)
                    .isEqualTo(java.time.OffsetDateTime.parse(text).toInstant());
        }
    }
}
