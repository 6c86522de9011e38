package io.kplane.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** A failing test gets its namespace's events, pod logs and sync records attached. */
@KplaneTest
class FailureReportIT {

    static Job failingJob(String name) {
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withCommand("sh", "-c", "echo the answer is not 42; exit 3")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    @Test
    void theReportHoldsEventsLogsAndSyncRecords(
            KubernetesClient client, KplaneNamespace namespace, KplaneCluster cluster) {
        client.batch().v1().jobs().resource(failingJob("crunch")).create();
        client.batch()
                .v1()
                .jobs()
                .withName("crunch")
                .waitUntilCondition(
                        j -> j.getStatus() != null
                                && j.getStatus().getFailed() != null
                                && j.getStatus().getFailed() == 1
                                && j.getStatus().getConditions().stream()
                                        .anyMatch(c -> c.getType().equals("Failed")),
                        60,
                        TimeUnit.SECONDS);
        // the Job's Warning event is recorded asynchronously, after the status write
        await().atMost(Duration.ofSeconds(30)).until(() -> client.v1().events().list().getItems().stream()
                .anyMatch(e -> e.getReason().equals("BackoffLimitExceeded")));

        String report = new FailureReport(cluster).render(namespace.name());

        assertThat(report).contains("kplane: namespace " + namespace.name());
        assertThat(report).containsPattern("Normal +SuccessfulCreate +Job/crunch");
        assertThat(report).containsPattern("BackoffLimitExceeded +Job/crunch");
        assertThat(report).contains("container main (phase Failed)").contains("the answer is not 42");
        assertThat(report).contains("job-controller sync records of jobs crunch");
        assertThat(report).doesNotContain("(not available from job-controller)");
        assertThat(report.substring(report.indexOf("sync records of jobs crunch")))
                .contains("\"key\"");
    }

    /** Run by the engine test kit below, never on its own (the condition keeps surefire/failsafe off it). */
    @KplaneTest
    static class AFailingUserTest {
        @Test
        void expectsTheJobToSucceed(KubernetesClient client) {
            org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("kplane.inner") != null);
            client.batch().v1().jobs().resource(failingJob("nightly")).create();
            Job job = client.batch()
                    .v1()
                    .jobs()
                    .withName("nightly")
                    .waitUntilCondition(
                            j -> j.getStatus() != null && j.getStatus().getFailed() != null, 60, TimeUnit.SECONDS);
            assertThat(job.getStatus().getSucceeded()).as("succeeded pods").isEqualTo(1);
        }
    }

    @Test
    void aFailingTestGetsTheReportAsAReportEntry() {
        System.setProperty("kplane.inner", "true");
        Events events;
        try {
            events = EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(AFailingUserTest.class))
                    .execute()
                    .allEvents();
        } finally {
            System.clearProperty("kplane.inner");
        }
        assertThat(events.failed().count()).isEqualTo(1);
        String report = events.reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class)
                        .orElseThrow())
                .map(r -> r.getKeyValuePairs().getOrDefault("kplane", ""))
                .filter(s -> !s.isEmpty())
                .findFirst()
                .orElse("");
        assertThat(report)
                .contains("the answer is not 42")
                .contains("Job/nightly")
                .contains("job-controller sync records of jobs nightly");
    }
}
