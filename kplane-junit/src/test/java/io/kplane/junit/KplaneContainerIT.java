package io.kplane.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * {@link KplaneContainer} on a real Docker-API engine (CI: the compose engine's Podman, after
 * {@code deploy/compose-e2e.sh} built {@code kplane:latest} there): the image runs the launcher, the
 * kubeconfig points at the published port, the CronJob manifest from this module's resources runs at
 * its schedule with the cluster clock steered from the test, and its Job succeeds.
 *
 * <p>Runs only with {@code -Pkplane-container}. Without an engine or without the image it is skipped
 * with the reason, unless {@code -Dkplane.container.required=true} (set by {@code .ci/run}), where
 * it fails instead: CI always has both.
 */
class KplaneContainerIT {
    private static KplaneContainer kplane;

    @BeforeAll
    static void startContainer() {
        String image = System.getProperty("kplane.image", KplaneContainer.DEFAULT_IMAGE);
        String missing = missingPrerequisite(image);
        if (missing != null) {
            if (Boolean.getBoolean("kplane.container.required")) {
                Assertions.fail(missing);
            }
            Assumptions.abort("SKIPPED KplaneContainerIT: " + missing);
        }
        kplane = new KplaneContainer(image).withComponentArg("kubelet-sim=--crashloop-base=1s");
        kplane.start();
        System.out.printf(
                "kplane container (%s): stack started in %d ms, resident memory %d MiB (sum of VmRSS inside)%n",
                image, kplane.startDuration().toMillis(), kplane.residentMemoryMiB());
    }

    @AfterAll
    static void stopContainer() {
        if (kplane != null) {
            kplane.stop();
        }
    }

    /** Why the test cannot run here, or {@code null}. */
    private static String missingPrerequisite(String image) {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return "no Docker-API engine reachable (DOCKER_HOST=" + System.getenv("DOCKER_HOST")
                    + "); start one, e.g. shared/tools/compose-engine/engine.sh start";
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
            return null;
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            return "image " + image + " not on the engine: build it with deploy/compose-e2e.sh or "
                    + "`docker build -f deploy/Dockerfile -t " + image + " .` (or set -Dkplane.image)";
        }
    }

    @Test
    void theStackRunsInTheContainerEachComponentItsOwnProcess() throws Exception {
        URI server = URI.create(kplane.server());
        assertThat(server.getPort()).isEqualTo(kplane.getMappedPort(KplaneContainer.API_PORT));
        assertThat(kplane.kubeconfigFile()).content().contains(kplane.server());

        JsonNode state = KubeHttp.JSON.readTree(kplane.stateJson());
        assertThat(state.path("ready").asBoolean()).isTrue();
        Set<Long> pids = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (JsonNode c : state.path("components")) {
            names.add(c.path("name").asText());
            pids.add(c.path("pid").asLong());
        }
        assertThat(names)
                .contains(
                        "postgres",
                        "apiserver",
                        "job-controller",
                        "cronjob-controller",
                        "garbage-collector",
                        "scheduler",
                        "kubelet-sim-1");
        assertThat(pids).as("one process per component").hasSameSizeAs(names);

        // the official client, from the same kubeconfig, reaches the server too
        BatchV1Api batch = new BatchV1Api(kplane.apiClient());
        assertThat(batch.listNamespacedJob("default").execute().getItems()).isNotNull();
    }

    @Test
    void aCronJobFromTheRepositoryRunsAtItsScheduleAndItsJobSucceeds() throws Exception {
        String namespace = "container-it-" + System.nanoTime() % 100_000;
        ClusterClock clock = kplane.clock();
        try (KubernetesClient admin = kplane.kubernetesClient();
                KubernetesClient client = kplane.kubernetesClient(namespace)) {
            admin.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace)
                            .endMetadata()
                            .build())
                    .create();
            // created at 01:59 in Berlin (a CronJob never runs a schedule from before its creation) ...
            clock.set(Instant.parse("2026-12-01T00:59:00Z"));
            try (InputStream manifest = getClass().getResourceAsStream("/manifests/nightly-report.yaml")) {
                client.load(manifest).serverSideApply();
            }
            // ... then two seconds before its schedule "0 2 * * *", running on from there
            clock.set(Instant.parse("2026-12-01T00:59:58Z"));

            await().atMost(Duration.ofSeconds(90))
                    .until(() -> !client.batch().v1().jobs().list().getItems().isEmpty());
            List<Job> jobs = client.batch().v1().jobs().list().getItems();
            assertThat(jobs).hasSize(1);
            String jobName = jobs.get(0).getMetadata().getName();
            Job job = client.batch()
                    .v1()
                    .jobs()
                    .withName(jobName)
                    .waitUntilCondition(
                            j -> j != null
                                    && j.getStatus() != null
                                    && j.getStatus().getConditions() != null
                                    && j.getStatus().getConditions().stream()
                                            .anyMatch(c -> c.getType().equals("Complete")
                                                    && c.getStatus().equals("True")),
                            90,
                            TimeUnit.SECONDS);
            assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
            assertThat(job.getMetadata().getOwnerReferences())
                    .extracting("kind")
                    .containsExactly("CronJob");
            // the Job was created at cluster time 02:00 Berlin, not at wall time
            assertThat(Instant.parse(job.getMetadata().getCreationTimestamp()))
                    .isBetween(Instant.parse("2026-12-01T01:00:00Z"), Instant.parse("2026-12-01T01:05:00Z"));
            String pod = client.pods()
                    .withLabel("job-name", jobName)
                    .list()
                    .getItems()
                    .get(0)
                    .getMetadata()
                    .getName();
            // the kubelet inside the container ran it; its log comes through the API server's proxy
            assertThat(client.pods().withName(pod).getLog()).isEqualTo("report done\n");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                CronJob cronJob = client.batch()
                        .v1()
                        .cronjobs()
                        .withName("nightly-report")
                        .get();
                assertThat(cronJob.getStatus().getLastSuccessfulTime()).isNotNull();
            });
            // the official client sees the same Job
            V1Job seen = new BatchV1Api(kplane.apiClient())
                    .readNamespacedJob(jobName, namespace)
                    .execute();
            assertThat(seen.getStatus().getSucceeded()).isEqualTo(1);
        } finally {
            clock.real();
        }
    }
}
