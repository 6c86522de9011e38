package io.kplane.controllers.ttl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.ServedLens;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TTL-after-finished controller's sync records (expires-at with its requeue, deleted with the
 * write) read from {@code /lens/objects/...} over HTTP, and the deletion-duration histogram they feed,
 * from a real {@code /metrics} scrape; real API server, fake cluster clock.
 */
class TtlControllerLensTest extends ApiServerTest {
    private static final String NS = "default";
    private FakeClock clock;
    private ServedLens served;
    private SharedInformerFactory informers;
    private TtlAfterFinishedController ttl;

    @BeforeEach
    void start() throws Exception {
        clock = new FakeClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        served = ServedLens.start("ttl-controller", clock);
        TtlControllerMetrics.bind(served.lens, served.registry);
        informers = new SharedInformerFactory(client, Clock.system()).withLens(served.lens);
        ttl = new TtlAfterFinishedController(informers.informerFor(Job.class), client, clock, 2);
        informers.start();
        ttl.start(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        ttl.stop(Duration.ofSeconds(5));
        informers.shutdown();
        served.close();
    }

    @Test
    void expiresAtThenDeletedAndTheDeletionDurationIsObserved() throws Exception {
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(ContainerBuilder.builder()
                                .name("main")
                                .image("busybox")
                                .build()))
                        .restartPolicy("Never")
                        .build());
        Job job = client.jobs()
                .inNamespace(NS)
                .create(new Job(
                        null,
                        null,
                        ObjectMeta.named(NS, uniqueName("ttl-lens")),
                        JobSpecBuilder.builder()
                                .template(template)
                                .ttlSecondsAfterFinished(30)
                                .build(),
                        null));
        Instant finished = clock.now();
        client.jobs()
                .inNamespace(NS)
                .updateStatus(job.withStatus(JobStatusBuilder.builder()
                        .conditions(List.of(new JobCondition("Complete", "True", finished, finished, null, null)))
                        .startTime(finished.minusSeconds(10))
                        .completionTime(finished)
                        .build()));
        String key = NS + "/" + job.name();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> !served.syncsOf(key, "expires-at").isEmpty());
        JsonNode waiting = served.syncsOf(key, "expires-at").get(0);
        assertThat(waiting.path("controller").asText()).isEqualTo("ttl");
        assertThat(waiting.path("resource").asText()).isEqualTo("jobs");
        assertThat(waiting.path("sync").path("saw").path("finishTime").asText()).isEqualTo(finished.toString());
        assertThat(waiting.path("sync")
                        .path("saw")
                        .path("ttlSecondsAfterFinished")
                        .asInt())
                .isEqualTo(30);
        assertThat(waiting.path("sync").path("saw").path("expiresAt").asText())
                .isEqualTo(finished.plusSeconds(30).toString());
        assertThat(waiting.path("sync").path("requeueAfterMs").asDouble()).isEqualTo(30_000);
        assertThat(waiting.path("sync").path("writes")).isEmpty();

        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        clock.advance(Duration.ofSeconds(31)); // due at +30 s; the worker runs at +31 s: one second late
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !served.syncsOf(key, "deleted").isEmpty());
        JsonNode deleted = served.syncsOf(key, "deleted").get(0).path("sync");
        assertThat(deleted.path("saw").path("readFrom").asText()).isEqualTo("live");
        assertThat(deleted.path("writes").get(0).path("verb").asText()).isEqualTo("delete (Background)");
        assertThat(deleted.path("writes").get(0).path("key").asText()).isEqualTo(key);
        assertThat(deleted.path("writes").get(0).path("error").isNull()).isTrue();
        assertThat(client.jobs().inNamespace(NS).find(job.name())).isEmpty();

        String metrics = served.metrics();
        assertThat(metrics)
                .contains(
                        "ttl_after_finished_controller_job_deletion_duration_seconds_count 1",
                        "ttl_after_finished_controller_job_deletion_duration_seconds_sum 1.0",
                        "ttl_after_finished_controller_job_deletion_duration_seconds_bucket{le=\"0.8\"} 0",
                        "ttl_after_finished_controller_job_deletion_duration_seconds_bucket{le=\"1.6\"} 1",
                        "ttl_after_finished_controller_job_deletion_duration_seconds_bucket{le=\"819.2\"} 1",
                        "workqueue_adds_total{name=\"ttl_jobs_to_delete\"}");
    }
}
