package io.kplane.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.json.Json;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code why} and describe's "Last decisions" on a real stack ({@link MiniCluster} with the Job
 * controller's lens on and its records persisted; the kubelet persists its pod-worker decisions): a
 * completed Job's {@code pods_created} sync with its triggers and writes, its pod's worker decisions,
 * the errors, {@code -o json}, and the real kubectl reading the same SyncRecords.
 */
class WhyCommandTest {
    private static MiniCluster cluster;
    private static CliRunner cli;

    @BeforeAll
    static void start() throws Exception {
        cluster = MiniCluster.withLens();
        cli = new CliRunner(cluster.api.url());
        assertThat(cli.runWithStdin(CliRunner.PI_JOB, "apply", "-f", "-").out()).isEqualTo("job.batch/pi created\n");
        CliRunner.Result waited = cli.run("wait", "--for=condition=complete", "job/pi", "--timeout=60s");
        assertThat(waited.out()).as(waited.err()).isEqualTo("job.batch/pi condition met\n");
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    @Test
    void whyShowsTheCompletedJobsSyncsNewestFirst() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(cli.run("why", "job/pi").out())
                        .contains("pods_created")
                        .contains("Complete"));
        CliRunner.Result why = cli.run("why", "jobs", "pi");
        assertThat(why.code()).as(why.err()).isZero();
        String out = why.out();
        assertThat(out).startsWith("Job default/pi: ").contains("newest first");
        assertThat(out).contains("job-controller/job");
        // the pods_created sync: triggered by the Job's ADDED event, wrote a pod with the resourceVersion returned
        String created = out.substring(out.lastIndexOf("\n\n", out.indexOf("pods_created")) + 2);
        created = created.contains("\n\n") ? created.substring(0, created.indexOf("\n\n")) : created;
        assertThat(created)
                .containsPattern("Triggers: +job default/pi ADDED rv \\d+")
                .containsPattern("Wrote: +create pod default/pi-\\w+ -> rv \\d+")
                .containsPattern("Events: +Normal  SuccessfulCreate  Created pod: pi-")
                .containsPattern("Saw: +\\S+=")
                .contains("took ");
        // newest first: the completing sync comes before the pods_created one
        assertThat(out.indexOf("Complete")).isLessThan(out.indexOf("pods_created"));
    }

    @Test
    void whyOfThePodShowsTheKubeletsWorkerDecisions() {
        String pod = cluster.client.pods().inNamespace("default").list().stream()
                .filter(p -> p.name().startsWith("pi-"))
                .findFirst()
                .orElseThrow()
                .name();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(cli.run("why", "po/" + pod).out())
                        .contains("kubelet-" + MiniCluster.NODE + "/pod-worker")
                        .contains("Started")
                        .containsPattern("updateStatus pod default/" + pod + " -> rv \\d+"));
    }

    @Test
    void describeHasLastDecisionsBeforeEvents() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () -> assertThat(cli.run("describe", "job", "pi").out()).contains("Last decisions:"));
        String out = cli.run("describe", "job", "pi").out();
        String section = out.substring(out.indexOf("Last decisions:"), out.indexOf("\nEvents:"));
        assertThat(section.lines().skip(1).toList())
                .hasSizeBetween(1, 3)
                .allSatisfy(l -> assertThat(l).startsWith("  ").contains("job-controller/job"));
    }

    @Test
    void badKindsAndMissingObjectsAreOneLineErrors() {
        CliRunner.Result kind = cli.run("why", "widget/pi");
        assertThat(kind.code()).isEqualTo(1);
        assertThat(kind.err()).isEqualTo("error: the server doesn't have a resource type \"widget\"\n");
        CliRunner.Result missing = cli.run("why", "job/nope");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("Error from server (NotFound): jobs.batch \"nope\" not found\n");
        CliRunner.Result output = cli.run("why", "job/pi", "-o", "wide");
        assertThat(output.code()).isEqualTo(1);
        assertThat(output.err().lines().count()).isEqualTo(1);
    }

    @Test
    void jsonOutputIsTheSyncRecords() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() ->
                        assertThat(cli.run("why", "job/pi", "-o", "json").out()).contains("pods_created"));
        JsonNode list = Json.tree(cli.run("why", "job/pi", "-o", "json").out());
        assertThat(list.path("kind").asText()).isEqualTo("List");
        JsonNode record = list.path("items").get(0);
        assertThat(record.path("kind").asText()).isEqualTo("SyncRecord");
        assertThat(record.path("target").path("name").asText()).isEqualTo("pi");
        assertThat(cli.run("why", "job/pi", "-o", "yaml").out()).contains("kind: SyncRecord");
    }

    @Test
    void theRealKubectlReadsTheSyncRecords() throws Exception {
        assumeTrue(RealKubectl.installed(), "/usr/bin/kubectl is not installed");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(cli.run("why", "job/pi").out()).contains("pods_created"));
        RealKubectl kubectl = new RealKubectl(cluster.api.url());
        RealKubectl.Result resources = kubectl.run("api-resources", "--api-group=lens.kplane.io");
        assertThat(resources.out())
                .as(resources.err())
                .containsPattern("syncrecords +sr +lens.kplane.io/v1 +true +SyncRecord");
        RealKubectl.Result get = kubectl.run("get", "syncrecords", "-n", "default");
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(get.out())
                .containsPattern("NAME +OBJECT +CONTROLLER +SYNCS +LAST DECISION +LAST SYNC")
                .containsPattern("pi\\.job\\.job +Job/pi +job +\\d+ ");
        RealKubectl.Result raw =
                kubectl.run("get", "--raw", "/apis/lens.kplane.io/v1/namespaces/default/syncrecords/pi.job.job");
        assertThat(raw.code()).as(raw.err()).isZero();
        JsonNode record = Json.tree(raw.out());
        assertThat(record.path("records").toString()).contains("pods_created");
        assertThat(record.path("metadata")
                        .path("ownerReferences")
                        .get(0)
                        .path("kind")
                        .asText())
                .isEqualTo("Job");
    }
}
