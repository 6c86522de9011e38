package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StartProbeScheduleTest {
    private final StartProbeSchedule schedule = StartProbeSchedule.standard();

    @Test
    void probesOftenWhileAStartNormallyEnds() {
        assertThat(schedule.delayAfter(Duration.ZERO)).isEqualTo(Duration.ofMillis(50));
        assertThat(schedule.delayAfter(Duration.ofSeconds(15))).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void slowsDownAsTheStartDragsOnButNeverBeyondTheSlowest() {
        Duration later = schedule.delayAfter(Duration.ofSeconds(16));
        assertThat(later).isGreaterThan(Duration.ofMillis(50)).isLessThan(Duration.ofMillis(250));
        assertThat(schedule.delayAfter(Duration.ofSeconds(32))).isGreaterThan(later);
        assertThat(schedule.delayAfter(Duration.ofMinutes(3))).isEqualTo(Duration.ofMillis(250));
    }
}
