package io.kplane.controllers.gc;

import static io.kplane.controllers.testing.TestObjects.cronJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.cronjob.JobsFromCronJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The garbage collector against a real API server: background, foreground and orphan cascades. */
class GarbageCollectorTest {
    private static final String NS = "default";
    private static TestApiServer api;
    private static KubeClient client;
    private static SharedInformerFactory informers;
    private static GarbageCollector gc;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
        informers = new SharedInformerFactory(client, Clock.system());
        gc = new GarbageCollector(client, informers, Clock.system(), 4);
        informers.start();
        gc.start(Duration.ofSeconds(10));
    }

    @AfterAll
    static void stop() throws Exception {
        gc.stop(Duration.ofSeconds(5));
        informers.shutdown();
        api.close();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    private static Job job(String name, OwnerReference owner) {
        Container c = ContainerBuilder.builder().name("main").image("busybox").build();
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(c))
                        .restartPolicy("Never")
                        .build());
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .namespace(NS)
                .name(name)
                .ownerReferences(owner == null ? null : List.of(owner))
                .build();
        return client.jobs()
                .inNamespace(NS)
                .create(new Job(
                        null,
                        null,
                        meta,
                        JobSpecBuilder.builder().template(template).build(),
                        null));
    }

    private static Pod pod(String name, OwnerReference... owners) {
        Container c = ContainerBuilder.builder().name("main").image("busybox").build();
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .namespace(NS)
                .name(name)
                .ownerReferences(List.of(owners))
                .build();
        return client.pods()
                .inNamespace(NS)
                .create(new Pod(
                        null,
                        null,
                        meta,
                        PodSpecBuilder.builder()
                                .containers(List.of(c))
                                .restartPolicy("Never")
                                .build(),
                        null));
    }

    private static OwnerReference controllerRef(Job job) {
        return OwnerReference.controllerOf(Job.API_VERSION, Job.KIND, job.metadata());
    }

    private static boolean gone(String resource, String name) {
        return switch (resource) {
            case "pods" -> client.pods().inNamespace(NS).find(name).isEmpty();
            case "jobs" -> client.jobs().inNamespace(NS).find(name).isEmpty();
            default -> client.cronJobs().inNamespace(NS).find(name).isEmpty();
        };
    }

    @Test
    void backgroundDeletionOfAJobRemovesItsPods() {
        Job job = job(unique("bg"), null);
        Pod a = pod(job.name() + "-a", controllerRef(job));
        Pod b = pod(job.name() + "-b", controllerRef(job));
        client.jobs().inNamespace(NS).delete(job.name(), DeleteOptions.propagation("Background"));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("pods", a.name()) && gone("pods", b.name()));
        assertThat(gone("jobs", job.name())).isTrue();
    }

    @Test
    void deletingACronJobRemovesItsJobsAndTheirPods() {
        CronJob cj = client.cronJobs().inNamespace(NS).create(cronJob(NS, unique("cascade"), s -> s.suspend(true)));
        Job job =
                client.jobs().inNamespace(NS).create(JobsFromCronJob.jobFor(cj, Instant.parse("2026-01-01T00:00:00Z")));
        Pod p = pod(job.name() + "-p", controllerRef(job));
        client.cronJobs().inNamespace(NS).delete(cj.name(), DeleteOptions.propagation("Background"));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("jobs", job.name()) && gone("pods", p.name()));
    }

    @Test
    void foregroundDeletionKeepsTheOwnerUntilBlockingDependentsAreGone() {
        Job job = job(unique("fg"), null);
        Pod a = pod(job.name() + "-a", controllerRef(job));
        Pod b = pod(job.name() + "-b", controllerRef(job).withBlockOwnerDeletion(false));
        client.jobs().inNamespace(NS).delete(job.name(), DeleteOptions.propagation("Foreground"));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("jobs", job.name()));
        // The owner can only disappear after its blocking dependent did.
        assertThat(gone("pods", a.name())).isTrue();
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("pods", b.name()));
    }

    @Test
    void foregroundDeletionWaitsForADependentWithAFinalizer() {
        Job job = job(unique("fgwait"), null);
        Pod held = pod(job.name() + "-held", controllerRef(job));
        // A finalizer (like the Job controller's job-tracking one) keeps the pod, and so the Job.
        client.pods()
                .inNamespace(NS)
                .patch(
                        held.name(),
                        io.kplane.api.patch.PatchType.MERGE,
                        "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}");
        client.jobs().inNamespace(NS).delete(job.name(), DeleteOptions.propagation("Foreground"));
        await().atMost(Duration.ofSeconds(15))
                .until(() -> client.pods()
                                .inNamespace(NS)
                                .get(held.name())
                                .metadata()
                                .deletionTimestamp()
                        != null);
        Job waiting = client.jobs().inNamespace(NS).get(job.name());
        assertThat(waiting.metadata().deletionTimestamp()).isNotNull();
        assertThat(waiting.metadata().finalizers()).contains("foregroundDeletion");

        client.pods()
                .inNamespace(NS)
                .patch(held.name(), io.kplane.api.patch.PatchType.MERGE, "{\"metadata\":{\"finalizers\":null}}");
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("pods", held.name()) && gone("jobs", job.name()));
    }

    @Test
    void orphanDeletionKeepsDependentsAndDropsTheirOwnerReference() {
        Job job = job(unique("orphan"), null);
        Pod p = pod(job.name() + "-p", controllerRef(job));
        client.jobs().inNamespace(NS).delete(job.name(), DeleteOptions.propagation("Orphan"));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("jobs", job.name()));
        Pod orphan = client.pods().inNamespace(NS).get(p.name());
        assertThat(orphan.metadata().ownerReferencesOrEmpty()).isEmpty();
        assertThat(orphan.metadata().deletionTimestamp()).isNull();
    }

    @Test
    void aRecreatedOwnerWithTheSameNameDoesNotAdoptTheOldDependents() {
        String name = unique("recreated");
        Job old = job(name, null);
        Pod p = pod(name + "-p", controllerRef(old));
        client.jobs().inNamespace(NS).delete(name, DeleteOptions.propagation("Orphan"));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("jobs", name));
        // The orphaned pod gets a stale reference back by hand, then a new Job takes the name.
        Job recreated = job(name, null);
        Pod stale = pod(name + "-stale", controllerRef(old));
        await().atMost(Duration.ofSeconds(15)).until(() -> gone("pods", stale.name()));
        assertThat(gone("jobs", recreated.name())).isFalse();
        assertThat(gone("pods", p.name())).isFalse();
    }

    @Test
    void anObjectKeptAliveByAnotherOwnerOnlyLosesTheDanglingReference() {
        Job keeper = job(unique("keeper"), null);
        Job leaving = job(unique("leaving"), null);
        Pod shared = pod(
                unique("shared"),
                controllerRef(keeper),
                new OwnerReference(Job.API_VERSION, Job.KIND, leaving.name(), leaving.uid(), false, false));
        client.jobs().inNamespace(NS).delete(leaving.name(), DeleteOptions.propagation("Background"));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(client.pods()
                        .inNamespace(NS)
                        .get(shared.name())
                        .metadata()
                        .ownerReferencesOrEmpty())
                .extracting(OwnerReference::uid)
                .containsExactly(keeper.uid()));
    }
}
