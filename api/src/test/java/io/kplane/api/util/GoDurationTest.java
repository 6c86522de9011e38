package io.kplane.api.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Go's own {@code time.ParseDuration} table (src/time/time_test.go), plus the forms the old per-component
 * parsers disagreed on: every component and kubectl-lite now parse these the same way.
 */
class GoDurationTest {
    private static final long NS = 1, US = 1_000, MS = 1_000_000, S = 1_000_000_000, M = 60 * S, H = 3600 * S;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "0, 0",
        "5s, 5000000000",
        "30s, 30000000000",
        "1478s, 1478000000000",
        "-5s, -5000000000",
        "+5s, 5000000000",
        "-0, 0",
        "+0, 0",
        "5.0s, 5000000000",
        "5.6s, 5600000000",
        "5.s, 5000000000",
        ".5s, 500000000",
        "1.0s, 1000000000",
        "1.00s, 1000000000",
        "1.004s, 1004000000",
        "1.0040s, 1004000000",
        "100.00100s, 100001000000",
        "10ns, 10",
        "11us, 11000",
        "13ms, 13000000",
        "52763797000ns, 52763797000",
        "9007199254740993ns, 9007199254740993",
        "9223372036854775807ns, 9223372036854775807",
        "9223372036854775.807us, 9223372036854775807",
        "9223372036s854ms775us807ns, 9223372036854775807",
        "-9223372036854775808ns, -9223372036854775808",
        "-9223372036854775.808us, -9223372036854775808",
        "-9223372036s854ms775us808ns, -9223372036854775808",
        "-2562047h47m16.854775808s, -9223372036854775808",
    })
    void parsesGoTable(String text, long nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @Test
    void parsesUnitsCompositesAndFractions() {
        assertThat(GoDuration.parse("12\u00b5s")).isEqualTo(Duration.ofNanos(12 * US)); // micro sign
        assertThat(GoDuration.parse("12\u03bcs")).isEqualTo(Duration.ofNanos(12 * US)); // Greek mu
        assertThat(GoDuration.parse("14s")).isEqualTo(Duration.ofSeconds(14));
        assertThat(GoDuration.parse("15m")).isEqualTo(Duration.ofMinutes(15));
        assertThat(GoDuration.parse("16h")).isEqualTo(Duration.ofHours(16));
        assertThat(GoDuration.parse("3h30m")).isEqualTo(Duration.ofNanos(3 * H + 30 * M));
        assertThat(GoDuration.parse("10.5s4m")).isEqualTo(Duration.ofNanos(4 * M + 10 * S + 500 * MS));
        assertThat(GoDuration.parse("-2m3.4s")).isEqualTo(Duration.ofNanos(-(2 * M + 3 * S + 400 * MS)));
        assertThat(GoDuration.parse("1h2m3s4ms5us6ns"))
                .isEqualTo(Duration.ofNanos(H + 2 * M + 3 * S + 4 * MS + 5 * US + 6 * NS));
        assertThat(GoDuration.parse("39h9m14.425s")).isEqualTo(Duration.ofNanos(39 * H + 9 * M + 14 * S + 425 * MS));
        // more than 9 fractional digits, and the first overflow check of Go's leadingFraction
        assertThat(GoDuration.parse("0.3333333333333333333h")).isEqualTo(Duration.ofMinutes(20));
        assertThat(GoDuration.parse("0.100000000000000000000h")).isEqualTo(Duration.ofMinutes(6));
        assertThat(GoDuration.parse("0.830103483285477580700h"))
                .isEqualTo(Duration.ofNanos(49 * M + 48 * S + 372_539_827));
        // the forms the issue names, which used to work in some components only
        assertThat(GoDuration.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("300ms")).isEqualTo(Duration.ofMillis(300));
        assertThat(GoDuration.parse("2h45m")).isEqualTo(Duration.ofMinutes(165));
        assertThat(GoDuration.parse("-1s")).isEqualTo(Duration.ofSeconds(-1));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "-",
                "s",
                ".",
                "-.",
                ".s",
                "+.s",
                "\u0085\u0085",
                "\uFFFD",
                // ISO-8601 and whitespace were accepted by some components; Kubernetes accepts neither
                "PT5M",
                " 5s",
                "5s ",
                "1 m",
                // overflow
                "9223372036854775810ns",
                "9223372036854775808ns",
                "-9223372036854775809ns",
                "9223372036854776us",
                "3000000h",
                "9223372036854775.808us",
                "9223372036854ms775us808ns"
            })
    void rejectsInvalidWithGosMessage(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("time: ")
                .hasMessageEndingWith("duration \"" + text + "\"");
    }

    @Test
    void namesTheMissingOrUnknownUnit() {
        // a bare number other than 0 needs a unit (kubectl's --request-timeout alone takes bare seconds)
        assertThatThrownBy(() -> GoDuration.parse("3")).hasMessage("time: missing unit in duration \"3\"");
        assertThatThrownBy(() -> GoDuration.parse("1d")).hasMessage("time: unknown unit \"d\" in duration \"1d\"");
        assertThatThrownBy(() -> GoDuration.parse("5S")).hasMessage("time: unknown unit \"S\" in duration \"5S\"");
        assertThatThrownBy(() -> GoDuration.parse(null)).hasMessage("time: invalid duration \"\"");
    }

    @Test
    void nonNegativeRefusesOnlyNegatives() {
        assertThat(GoDuration.parseNonNegative("0")).isZero();
        assertThat(GoDuration.parseNonNegative("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> GoDuration.parseNonNegative("-1s"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("negative duration \"-1s\" is not allowed here");
    }
}
