package io.kplane.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fabric8 (default settings) on the served kinds' write semantics: shapes, patch flavours, server-side
 * apply, dry run, conflicts, not-found, events. In the spirit of fabric8's kubernetes-itests, written
 * for kplane's served kinds.
 */
class Fabric8ApiSemanticsIT {
    static KubernetesClient client;
    static String ns;

    @BeforeAll
    static void connect() {
        client = Fabric8Clients.connect();
        ns = Fabric8Clients.createNamespace(client, "f8s-");
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void aLeaseWithoutSpecComesBackWithAnEmptySpec() {
        Lease created = client.leases()
                .inNamespace(ns)
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("bare")
                        .endMetadata()
                        .build())
                .create();
        assertThat(created.getSpec()).isNotNull();
    }

    @Test
    void patchFlavoursAndServerSideApply() {
        client.leases()
                .inNamespace(ns)
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("p")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("a")
                        .endSpec()
                        .build())
                .create();
        Lease merged = client.leases()
                .inNamespace(ns)
                .withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"merge\":\"yes\"}}}");
        assertThat(merged.getMetadata().getLabels()).containsEntry("merge", "yes");
        Lease json = client.leases()
                .inNamespace(ns)
                .withName("p")
                .patch(
                        PatchContext.of(PatchType.JSON),
                        "[{\"op\":\"replace\",\"path\":\"/spec/holderIdentity\",\"value\":\"b\"}]");
        assertThat(json.getSpec().getHolderIdentity()).isEqualTo("b");
        Lease applied = client.leases()
                .inNamespace(ns)
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("ssa")
                        .withLabels(Map.of("via", "apply"))
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("x")
                        .endSpec()
                        .build())
                .fieldManager("compat")
                .forceConflicts()
                .serverSideApply();
        assertThat(applied.getMetadata().getLabels()).containsEntry("via", "apply");
    }

    @Test
    void dryRunWritesNothing() {
        CronJob cj = new CronJobBuilder()
                .withNewMetadata()
                .withName("dry")
                .endMetadata()
                .withNewSpec()
                .withSchedule("*/5 * * * *")
                .withNewJobTemplate()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .endJobTemplate()
                .endSpec()
                .build();
        CronJob answered = client.batch()
                .v1()
                .cronjobs()
                .inNamespace(ns)
                .resource(cj)
                .dryRun()
                .create();
        assertThat(answered.getMetadata().getName()).isEqualTo("dry");
        assertThat(client.batch()
                        .v1()
                        .cronjobs()
                        .inNamespace(ns)
                        .withName("dry")
                        .get())
                .isNull();
    }

    @Test
    void conflictsAndNotFoundAreKubernetesErrors() {
        Lease l = client.leases()
                .inNamespace(ns)
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("c")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("a")
                        .endSpec()
                        .build())
                .create();
        client.leases().inNamespace(ns).withName("c").edit(x -> {
            x.getSpec().setHolderIdentity("b");
            return x;
        });
        l.getSpec().setHolderIdentity("stale");
        assertThatThrownBy(() -> client.leases().inNamespace(ns).resource(l).update())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(409));
        assertThat(client.leases().inNamespace(ns).withName("missing").get()).isNull();
        assertThatThrownBy(() -> client.leases()
                        .inNamespace(ns)
                        .resource(new LeaseBuilder()
                                .withNewMetadata()
                                .withName("c")
                                .endMetadata()
                                .build())
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(409));
    }

    @Test
    void eventsAreCreatedAndListed() {
        Event e = new EventBuilder()
                .withNewMetadata()
                .withName("e1")
                .endMetadata()
                .withReason("Tested")
                .withMessage("from fabric8")
                .withType("Normal")
                .withNewInvolvedObject()
                .withKind("Lease")
                .withName("c")
                .withNamespace(ns)
                .endInvolvedObject()
                .build();
        client.v1().events().inNamespace(ns).resource(e).create();
        assertThat(client.v1()
                        .events()
                        .inNamespace(ns)
                        .withField("involvedObject.name", "c")
                        .list()
                        .getItems())
                .extracting(Event::getReason)
                .contains("Tested");
    }
}
