package io.kplane.client.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.kplane.api.core.Event;
import io.kplane.api.core.Pod;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.TestPods;
import io.kplane.client.time.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EventRecorderTest {
    static TestApiServer api;
    static KubeClient client;

    @BeforeAll
    static void start() {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
        TestPods.namespace(client, "events");
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @Test
    void writesEventsAndAggregatesRepeatsByCount() throws Exception {
        Pod pod = client.pods().inNamespace("events").create(TestPods.pod("events", "p", Map.of()));
        FakeClock clock = new FakeClock(Instant.parse("2026-03-01T10:00:00Z"));
        try (EventRecorder recorder = new EventRecorder(client, "job-controller", null, clock)) {
            recorder.normal(pod, "SuccessfulCreate", "Created pod: p");
            clock.advance(Duration.ofSeconds(5));
            recorder.normal(pod, "SuccessfulCreate", "Created pod: p");
            clock.advance(Duration.ofSeconds(5));
            recorder.normal(pod, "SuccessfulCreate", "Created pod: p");
            recorder.warning(pod, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
            assertThat(recorder.flush(Duration.ofSeconds(10))).isTrue();
        }
        List<Event> events = client.events().inNamespace("events").list();
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
