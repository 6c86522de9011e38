package io.kplane.client.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.core.Event;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Pod;
import io.kplane.client.ApiServerFixture;
import io.kplane.client.TestPods;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ApiEventRecorderTest {
    @RegisterExtension
    static final ApiServerFixture server = ApiServerFixture.withNamespaces("events");

    @Test
    void writesEventsAndAggregatesRepeatsByCount() throws Exception {
        Pod pod = server.client().pods().inNamespace("events").create(TestPods.pod("events", "p", Map.of()));
        FakeClock clock = new FakeClock(Instant.parse("2026-03-01T10:00:00Z"));
        try (ApiEventRecorder recorder = new ApiEventRecorder(server.client(), "job-controller", null, clock)) {
            recorder.event(pod, EventType.NORMAL, "SuccessfulCreate", "Created pod: p");
            clock.advance(Duration.ofSeconds(5));
            recorder.eventf(pod, EventType.NORMAL, "SuccessfulCreate", "Created pod: %s", "p");
            clock.advance(Duration.ofSeconds(5));
            recorder.event(pod, EventType.NORMAL, "SuccessfulCreate", "Created pod: p");
            recorder.event(
                    pod, EventType.WARNING, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
            assertThatThrownBy(() -> recorder.event(pod, "Info", "Whatever", "no such type"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Normal or Warning");
            assertThat(recorder.flush(Duration.ofSeconds(10))).isTrue();
        }
        List<Event> events = server.client().events().inNamespace("events").list();
        assertThat(events).hasSize(2);
        Event created = events.stream()
                .filter(e -> e.reason().equals("SuccessfulCreate"))
                .findFirst()
                .orElseThrow();
        assertThat(created.count()).isEqualTo(3);
        assertThat(created.type()).isEqualTo("Normal");
        assertThat(created.firstTimestamp()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(created.lastTimestamp()).isEqualTo(Instant.parse("2026-03-01T10:00:10Z"));
        assertThat(created.involvedObject().uid()).isEqualTo(pod.uid());
        assertThat(created.involvedObject().kind()).isEqualTo("Pod");
        assertThat(created.source().component()).isEqualTo("job-controller");
        Event warning = events.stream()
                .filter(e -> e.reason().equals("BackoffLimitExceeded"))
                .findFirst()
                .orElseThrow();
        assertThat(warning.type()).isEqualTo("Warning");
        assertThat(warning.count()).isEqualTo(1);
    }
}
