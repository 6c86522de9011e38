package io.kplane.api.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HumanDurationTest {

    @Test
    void formatsLikeKubectl() {
        assertThat(HumanDuration.format(Duration.ofSeconds(5))).isEqualTo("5s");
        assertThat(HumanDuration.format(Duration.ofSeconds(119))).isEqualTo("119s");
        assertThat(HumanDuration.format(Duration.ofSeconds(150))).isEqualTo("2m30s");
        assertThat(HumanDuration.format(Duration.ofMinutes(4))).isEqualTo("4m");
        assertThat(HumanDuration.format(Duration.ofMinutes(10).plusSeconds(59))).isEqualTo("10m");
        assertThat(HumanDuration.format(Duration.ofMinutes(185))).isEqualTo("3h5m");
        assertThat(HumanDuration.format(Duration.ofHours(5))).isEqualTo("5h");
        assertThat(HumanDuration.format(Duration.ofHours(20).plusMinutes(7))).isEqualTo("20h");
        assertThat(HumanDuration.format(Duration.ofHours(51))).isEqualTo("2d3h");
        assertThat(HumanDuration.format(Duration.ofDays(30))).isEqualTo("30d");
        assertThat(HumanDuration.format(Duration.ofDays(365 * 3 + 45))).isEqualTo("3y45d");
        assertThat(HumanDuration.format(Duration.ofDays(365 * 9))).isEqualTo("9y");
    }

    @Test
    void toleratesSmallClockSkewButFlagsLargeOnes() {
        assertThat(HumanDuration.format(Duration.ofMillis(-1500))).isEqualTo("0s");
        assertThat(HumanDuration.format(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
        assertThat(HumanDuration.since(null, Instant.now())).isEqualTo("<unknown>");
    }
}
