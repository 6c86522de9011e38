package io.kplane.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's example (kplane-junit/README.md, "Example"): apply the CronJob manifest the project
 * keeps in its repository, set the cluster clock to just before its schedule, and assert that the
 * Job it creates succeeds — real controllers and a real kubelet, no waiting until 02:00.
 */
@KplaneTest
class CronJobExampleIT {

    @Test
    void theNightlyReportRunsAndSucceeds(KubernetesClient client, ClusterClock clock) throws Exception {
        // the CronJob is created at 01:59 in Berlin (a CronJob never runs a schedule from before its creation) ...
        clock.set(Instant.parse("2026-12-01T00:59:00Z"));
        try (InputStream manifest = getClass().getResourceAsStream("/manifests/nightly-report.yaml")) {
            client.load(manifest).serverSideApply();
        }
        assertThat(client.batch().v1().cronjobs().withName("nightly-report").get())
                .isNotNull();
        // ... and the clock jumps to two seconds before its schedule "0 2 * * *", running on from there
        clock.set(Instant.parse("2026-12-01T00:59:58Z"));

        await().atMost(Duration.ofSeconds(60))
                .until(() -> !client.batch().v1().jobs().list().getItems().isEmpty());
        List<Job> jobs = client.batch().v1().jobs().list().getItems();
        assertThat(jobs).hasSize(1);
        Job job = client.batch()
                .v1()
                .jobs()
                .withName(jobs.get(0).getMetadata().getName())
                .waitUntilCondition(
                        j -> j != null
                                && j.getStatus() != null
                                && j.getStatus().getConditions() != null
                                && j.getStatus().getConditions().stream()
                                        .anyMatch(c -> c.getType().equals("Complete")
                                                && c.getStatus().equals("True")),
                        60,
                        java.util.concurrent.TimeUnit.SECONDS);
        assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
        assertThat(job.getMetadata().getOwnerReferences()).extracting("kind").containsExactly("CronJob");
        String pod = client.pods()
                .withLabel("job-name", job.getMetadata().getName())
                .list()
                .getItems()
                .get(0)
                .getMetadata()
                .getName();
        assertThat(client.pods().withName(pod).getLog()).isEqualTo("report done\n");
        CronJob cronJob =
                client.batch().v1().cronjobs().withName("nightly-report").get();
        assertThat(cronJob.getStatus().getLastSuccessfulTime()).isNotNull();
    }
}
