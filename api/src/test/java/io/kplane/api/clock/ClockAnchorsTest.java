package io.kplane.api.clock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClockAnchorsTest {
    private static final Instant W0 = Instant.parse("2026-11-23T10:00:00Z");

    private static ClockSpec spec(String mode, String time, String offset, Long rate) {
        return new ClockSpec(mode, time, offset, rate);
    }

    @Test
    void frozenAtATimeThenRateContinuesFromIt() {
        ClockStatus frozen =
                ClockAnchors.resolve(spec("Frozen", "2026-12-01T00:00:00Z", null, null), null, null, W0, 1);
        ClusterTime t = ClusterTime.of(frozen);
        assertThat(t.at(W0.plusSeconds(3600))).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));

        Instant w1 = W0.plusSeconds(100);
        ClockStatus rate = ClockAnchors.resolve(
                spec("Rate", null, null, 60L), spec("Frozen", "2026-12-01T00:00:00Z", null, null), frozen, w1, 2);
        ClusterTime r = ClusterTime.of(rate);
        assertThat(r.at(w1)).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(r.at(w1.plusSeconds(2))).isEqualTo(Instant.parse("2026-12-01T00:02:00Z"));
        assertThat(r.wallDelayUntil(Instant.parse("2026-12-01T00:01:00Z"), w1)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anUnchangedSpecKeepsTheAnchors() {
        ClockSpec s = spec("Rate", null, null, 60L);
        ClockStatus first = ClockAnchors.resolve(s, null, null, W0, 1);
        ClockStatus again = ClockAnchors.resolve(s, s, first, W0.plusSeconds(50), 1);
        assertThat(again.wallAnchor()).isEqualTo(W0);
    }

    @Test
    void offsetAndReal() {
        ClockStatus offset = ClockAnchors.resolve(spec("Offset", null, "-90m", null), null, null, W0, 1);
        assertThat(ClusterTime.of(offset).offsetAt(W0.plusSeconds(5))).isEqualTo(Duration.ofMinutes(-90));
        ClockStatus real = ClockAnchors.resolve(
                spec("Real", null, null, null), spec("Offset", null, "-90m", null), offset, W0.plusSeconds(9), 2);
        assertThat(ClusterTime.of(real).isReal()).isTrue();
    }

    @Test
    void goDurations() {
        assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("-1.5h")).isEqualTo(Duration.ofMinutes(-90));
        assertThat(GoDuration.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(GoDuration.format(Duration.ofMinutes(90))).isEqualTo("1h30m0s");
        assertThat(GoDuration.format(Duration.ofSeconds(-5))).isEqualTo("-5s");
    }
}
