package io.kplane.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobList;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A program on the official Java client ({@code io.kubernetes:client-java} 27), default settings, the
 * way its examples are written: create a Job, see it Complete through an informer, read its pod's log,
 * find its pods by label and field selector, delete it in the foreground and see it and its pods go.
 */
class OfficialClientJobIT {
    static ApiClient client;
    static SharedInformerFactory informers;
    static String ns;

    @BeforeAll
    static void connect() throws Exception {
        client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(
                        new StringReader(KplaneStack.shared().kubeconfigText())))
                .build();
        ns = "official-" + UUID.randomUUID().toString().substring(0, 8);
        new CoreV1Api(client)
                .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns)))
                .execute();
        informers = new SharedInformerFactory(client);
    }

    @AfterAll
    static void close() {
        if (informers != null) {
            informers.stopAllRegisteredInformers();
        }
    }

    @Test
    void jobCompletesIsSeenByAnInformerAndIsDeletedInTheForeground() throws Exception {
        GenericKubernetesApi<V1Job, V1JobList> jobs =
                new GenericKubernetesApi<>(V1Job.class, V1JobList.class, "batch", "v1", "jobs", client);
        SharedIndexInformer<V1Job> informer = informers.sharedIndexInformerFor(jobs, V1Job.class, 0, ns);
        List<String> seen = new CopyOnWriteArrayList<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1Job job) {
                seen.add("add " + job.getMetadata().getName());
            }

            @Override
            public void onUpdate(V1Job oldJob, V1Job job) {
                if (complete(job)) {
                    seen.add("complete " + job.getMetadata().getName());
                }
            }

            @Override
            public void onDelete(V1Job job, boolean finalStateUnknown) {
                seen.add("delete " + job.getMetadata().getName());
            }
        });
        informers.startAllRegisteredInformers();
        await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);

        V1Job job = new V1Job()
                .metadata(new V1ObjectMeta().name("pi").labels(Map.of("app", "pi")))
                .spec(new V1JobSpec()
                        .backoffLimit(1)
                        .template(new V1PodTemplateSpec()
                                .spec(new V1PodSpec()
                                        .restartPolicy("Never")
                                        .containers(List.of(new V1Container()
                                                .name("pi")
                                                .image("busybox")
                                                .command(List.of("sh", "-c", "echo 3.14159")))))));
        BatchV1Api batch = new BatchV1Api(client);
        V1Job created = batch.createNamespacedJob(ns, job).execute();
        assertThat(created.getMetadata().getUid()).isNotBlank();

        await().atMost(Duration.ofSeconds(60)).until(() -> seen.contains("complete pi"));
        assertThat(seen).startsWith("add pi");
        V1Job cached = informer.getIndexer().getByKey(ns + "/pi");
        assertThat(cached.getStatus().getSucceeded()).isEqualTo(1);

        CoreV1Api core = new CoreV1Api(client);
        List<V1Pod> byLabel = core.listNamespacedPod(ns)
                .labelSelector("job-name=pi")
                .execute()
                .getItems();
        assertThat(byLabel).hasSize(1);
        String pod = byLabel.get(0).getMetadata().getName();
        assertThat(core.listNamespacedPod(ns)
                        .fieldSelector("status.phase=Succeeded")
                        .execute()
                        .getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly(pod);
        assertThat(core.listNamespacedPod(ns)
                        .fieldSelector("status.phase=Running")
                        .execute()
                        .getItems())
                .isEmpty();
        assertThat(core.readNamespacedPodLog(pod, ns).container("pi").execute()).isEqualTo("3.14159\n");
        assertThat(batch.listNamespacedJob(ns)
                        .labelSelector("app in (pi, other)")
                        .execute()
                        .getItems())
                .hasSize(1);

        DeleteOptions foreground = new DeleteOptions();
        foreground.setPropagationPolicy("Foreground");
        KubernetesApiResponse<V1Job> deleted = jobs.delete(ns, "pi", foreground);
        assertThat(deleted.isSuccess())
                .as("delete answered %s", deleted.getHttpStatusCode())
                .isTrue();
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.contains("delete pi"));
        // foreground: the Job is gone only after its pods are
        assertThat(core.listNamespacedPod(ns)
                        .labelSelector("job-name=pi")
                        .execute()
                        .getItems())
                .isEmpty();
    }

    static boolean complete(V1Job job) {
        return job.getStatus() != null
                && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream()
                        .anyMatch(c ->
                                c.getType().equals("Complete") && c.getStatus().equals("True"));
    }
}
