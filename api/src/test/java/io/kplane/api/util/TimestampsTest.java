package io.kplane.api.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @Test
    void readsUtcAndOffsetTimestamps() {
        assertThat(Timestamps.parseOrNull("2024-03-01T10:00:00Z")).isEqualTo(Instant.parse("2024-03-01T10:00:00Z"));
        assertThat(Timestamps.parseOrNull("2024-03-01T12:00:00+02:00"))
                .isEqualTo(Instant.parse("2024-03-01T10:00:00Z"));
    }

    @Test
    void absentOrUnreadableIsNull() {
        assertThat(Timestamps.parseOrNull(null)).isNull();
        assertThat(Timestamps.parseOrNull("")).isNull();
        assertThat(Timestamps.parseOrNull("yesterday")).isNull();
    }
}
