package io.kplane.controllers.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobSpecBuilder;
import io.kplane.api.core.ContainerBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpecBuilder;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.DeleteOptions;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.testing.ApiServerTest;
import io.kplane.controllers.testing.ServedLens;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector's sync records, read from its {@code /lens/objects/...} over HTTP while it works a
 * real API server: delete (owners absent), orphan, wait-for-dependents then release-owner (foreground),
 * and nothing (owner present); its queue under upstream's name.
 */
class GarbageCollectorLensTest extends ApiServerTest {
    private static final String NS = "default";
    private ServedLens served;
    private SharedInformerFactory informers;
    private GarbageCollector gc;

    @BeforeEach
    void start() throws Exception {
        served = ServedLens.start("garbage-collector");
        informers = new SharedInformerFactory(client, Clock.system()).withLens(served.lens);
        gc = new GarbageCollector(client, informers, Clock.system(), 2);
        informers.start();
        gc.start(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        gc.stop(Duration.ofSeconds(5));
        informers.shutdown();
        served.close();
    }

    private static Job job(String name) {
        PodTemplateSpec template = new PodTemplateSpec(
                ObjectMetaBuilder.builder().build(),
                PodSpecBuilder.builder()
                        .containers(List.of(ContainerBuilder.builder()
                                .name("main")
                                .image("busybox")
                                .build()))
                        .restartPolicy("Never")
                        .build());
        return client.jobs()
                .inNamespace(NS)
                .create(new Job(
                        null,
                        null,
                        ObjectMeta.named(NS, name),
                        JobSpecBuilder.builder().template(template).build(),
                        null));
    }

    private static Pod pod(String name, Job owner, List<String> finalizers) {
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .namespace(NS)
                .name(name)
                .finalizers(finalizers)
                .ownerReferences(List.of(OwnerReference.controllerOf(Job.API_VERSION, Job.KIND, owner.metadata())))
                .build();
        return client.pods()
                .inNamespace(NS)
                .create(new Pod(
                        null,
                        null,
                        meta,
                        PodSpecBuilder.builder()
                                .containers(List.of(ContainerBuilder.builder()
                                        .name("main")
                                        .image("busybox")
                                        .build()))
                                .restartPolicy("Never")
                                .build(),
                        null));
    }

    @Test
    void aDependentWhoseOwnerIsGoneIsDeletedAndAnOwnedOneWithItsOwnerIsLeftAlone() throws Exception {
        Job job = job(uniqueName("gc-bg"));
        Pod pod = pod(job.name() + "-a", job, null);
        String podKey = NS + "/" + pod.name();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !served.syncsOf(podKey, "nothing").isEmpty());
        JsonNode kept = served.syncsOf(podKey, "nothing").get(0);
        assertThat(kept.path("sync").path("reason").asText()).isEqualTo("every owner is present in the cache");
        assertThat(kept.path("sync")
                        .path("saw")
                        .path("ownersPresentInCache")
                        .get(0)
                        .asText())
                .isEqualTo("Job/" + job.name());
        assertThat(kept.path("uid").asText()).isEqualTo(pod.uid());
        assertThat(kept.path("detail").path("queueKey").asText())
                .as("the queue holds uids")
                .isEqualTo(pod.uid());
        assertThat(kept.path("controller").asText()).isEqualTo("garbagecollector");

        client.jobs().inNamespace(NS).delete(job.name(), DeleteOptions.propagation("Background"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !served.syncsOf(podKey, "delete").isEmpty());
        JsonNode deleted = served.syncsOf(podKey, "delete").get(0).path("sync");
        assertThat(deleted.path("decision").asText()).isEqualTo("delete");
        assertThat(deleted.path("reason").asText())
                .isEqualTo("owners gone: Job/" + job.name() + "; propagationPolicy Background");
        assertThat(deleted.path("saw").path("ownersAbsent").get(0).asText()).isEqualTo("Job/" + job.name());
        assertThat(deleted.path("writes").get(0).path("verb").asText()).isEqualTo("delete (Background)");
        assertThat(deleted.path("writes").get(0).path("key").asText()).isEqualTo(podKey);
        assertThat(deleted.path("writes").get(0).path("error").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.pods().inNamespace(NS).find(pod.name()).isEmpty());

        JsonNode snapshot = served.snapshot();
        JsonNode controller = snapshot.path("controllers").get(0);
        assertThat(controller.path("name").asText()).isEqualTo("garbagecollector");
        assertThat(controller.path("queue").asText()).isEqualTo("garbage_collector_attempt_to_delete");
        assertThat(served.metrics())
                .contains(
                        "kplane_lens_sync_decisions_total{controller=\"garbagecollector\",decision=\"delete\"}",
                        "workqueue_adds_total{name=\"garbage_collector_attempt_to_delete\"}");
    }

    @Test
    void orphanAndForegroundDecisionsAreRecordedOnTheOwner() throws Exception {
        Job orphaning = job(uniqueName("gc-orphan"));
        Pod orphan = pod(orphaning.name() + "-a", orphaning, null);
        client.jobs().inNamespace(NS).delete(orphaning.name(), DeleteOptions.propagation("Orphan"));
        String orphanOwner = NS + "/" + orphaning.name();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !served.syncsOf(orphanOwner, "orphan").isEmpty());
        JsonNode orphaned = served.syncsOf(orphanOwner, "orphan").get(0).path("sync");
        assertThat(orphaned.path("saw").path("dependentsLive").asInt()).isEqualTo(1);
        assertThat(orphaned.path("writes"))
                .extracting(w -> w.path("verb").asText())
                .containsExactly("patch (remove ownerReferences)", "patch (remove finalizer orphan)");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.pods()
                .inNamespace(NS)
                .find(orphan.name())
                .map(p -> p.metadata().ownerReferencesOrEmpty().isEmpty())
                .orElse(false));

        // a blocking dependent held by a finalizer of its own: the owner waits, then is released
        Job fg = job(uniqueName("gc-fg"));
        Pod held = pod(fg.name() + "-a", fg, List.of("example.com/hold"));
        client.jobs().inNamespace(NS).delete(fg.name(), DeleteOptions.propagation("Foreground"));
        String fgOwner = NS + "/" + fg.name();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !served.syncsOf(fgOwner, "wait-for-dependents").isEmpty());
        JsonNode waiting = served.syncsOf(fgOwner, "wait-for-dependents").get(0).path("sync");
        assertThat(waiting.path("saw").path("blockingDependents").asInt()).isEqualTo(1);
        assertThat(waiting.path("reason").asText()).contains("pods " + NS + "/" + held.name());
        Pod current = client.pods().inNamespace(NS).get(held.name());
        client.pods()
                .inNamespace(NS)
                .update(current.withMetadata(ObjectMetaBuilder.builder(current.metadata())
                        .finalizers(null)
                        .build()));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !served.syncsOf(fgOwner, "release-owner").isEmpty());
        assertThat(served.syncsOf(fgOwner, "release-owner")
                        .get(0)
                        .path("sync")
                        .path("writes")
                        .get(0)
                        .path("verb")
                        .asText())
                .isEqualTo("patch (remove finalizer foregroundDeletion)");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.jobs().inNamespace(NS).find(fg.name()).isEmpty());
    }
}
