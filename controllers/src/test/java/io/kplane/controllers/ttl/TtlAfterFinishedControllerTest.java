package io.kplane.controllers.ttl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.batch.JobStatusBuilder;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.client.time.FakeClock;
import io.kplane.controllers.testing.ApiServerTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TTL-after-finished against a real API server; the controller runs on a fake clock. */
class TtlAfterFinishedControllerTest extends ApiServerTest {
    private static final String NS = "default";
    private FakeClock clock;
    private SharedInformerFactory informers;
    private TtlAfterFinishedController ttl;

    @BeforeEach
    void start() throws Exception {
        clock = new FakeClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        informers = new SharedInformerFactory(client, Clock.system());
        ttl = new TtlAfterFinishedController(informers.informerFor(Job.class), client, clock, 2);
        informers.start();
        ttl.start(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        ttl.stop(Duration.ofSeconds(5));
        informers.shutdown();
    }

    private Job createJob(Integer ttlSeconds) {
        Container c = ContainerBuilder.builder().name("main").image("busybox").build();
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(c))
                        .restartPolicy("Never")
                        .build());
        ObjectMeta meta =
                ObjectMeta.named(NS, "ttl-" + UUID.randomUUID().toString().substring(0, 6));
        return client.jobs()
                .inNamespace(NS)
                .create(new Job(
                        null,
                        null,
                        meta,
                        JobSpecBuilder.builder()
                                .template(template)
                                .ttlSecondsAfterFinished(ttlSeconds)
                                .build(),
                        null));
    }

    private void finish(Job job, String type, Instant at) {
        Job fresh = client.jobs().inNamespace(NS).get(job.name());
        client.jobs()
                .inNamespace(NS)
                .updateStatus(fresh.withStatus(JobStatusBuilder.builder()
                        .conditions(List.of(new JobCondition(type, "True", at, at, null, null)))
                        .startTime(at.minusSeconds(10))
                        .completionTime("Complete".equals(type) ? at : null)
                        .build()));
    }

    private boolean exists(Job job) {
        return client.jobs().inNamespace(NS).find(job.name()).isPresent();
    }

    @Test
    void aFinishedJobIsDeletedExactlyWhenItsTtlExpires() throws Exception {
        Job job = createJob(30);
        finish(job, "Complete", clock.now());
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue(); // requeued for the expiry
        clock.advance(Duration.ofSeconds(29));
        assertThat(exists(job)).isTrue();
        clock.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> !exists(job));
    }

    @Test
    void failedJobsExpireToo() {
        Job job = createJob(0);
        finish(job, "Failed", clock.now());
        await().atMost(Duration.ofSeconds(10)).until(() -> !exists(job));
    }

    @Test
    void runningJobsAndJobsWithoutTtlStay() throws Exception {
        Job running = createJob(0);
        Job noTtl = createJob(null);
        finish(noTtl, "Complete", clock.now());
        Job marker = createJob(0);
        finish(marker, "Complete", clock.now());
        await().atMost(Duration.ofSeconds(10)).until(() -> !exists(marker)); // the controller has caught up
        assertThat(exists(running)).isTrue();
        assertThat(exists(noTtl)).isTrue();
    }

    @Test
    void raisingTheTtlPostponesTheDeletion() throws Exception {
        Job job = createJob(30);
        finish(job, "Complete", clock.now());
        assertThat(clock.awaitPendingTimers(1, Duration.ofSeconds(10))).isTrue();
        Job fresh = client.jobs().inNamespace(NS).get(job.name());
        client.jobs().inNamespace(NS).update(fresh.withSpec(fresh.spec().withTtlSecondsAfterFinished(120)));
        await().atMost(Duration.ofSeconds(10)).until(() -> informers
                .informerFor(Job.class)
                .lister()
                .get(NS, job.name())
                .map(j -> j.spec().ttlSecondsAfterFinished() == 120)
                .orElse(false));
        clock.advance(Duration.ofSeconds(31)); // the old expiry: the live object says 120 s now
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> exists(job));
        clock.advance(Duration.ofSeconds(90));
        await().atMost(Duration.ofSeconds(10)).until(() -> !exists(job));
    }
}
