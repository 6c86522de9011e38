package io.kplane.controllers.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.client.events.ApiEventRecorder;
import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import io.kplane.controllers.job.JobController;
import io.kplane.controllers.job.JobSyncConfig;
import io.kplane.controllers.runtime.ControllerContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deleting a running Job: the garbage collector deletes its pods, which carry the Job controller's
 * {@code batch.kubernetes.io/job-tracking} finalizer; the Job controller releases the finalizers of
 * pods whose Job is gone, so the pods really disappear.
 */
class JobCascadeWithJobControllerTest {
    @Test
    void backgroundDeletionOfARunningJobRemovesItsTrackedPods() throws Exception {
        try (TestApiServer api = TestApiServer.start()) {
            KubeClient client = KubeClient.forServer(api.url());
            SharedInformerFactory informers = new SharedInformerFactory(client, Clock.system());
            ApiEventRecorder events = new ApiEventRecorder(client, "test", "test", Clock.system());
            JobController jobs = new JobController(
                    new ControllerContext(
                            client, informers, Clock.system(), events, new SimpleMeterRegistry(), 2, "test"),
                    JobSyncConfig.defaults());
            GarbageCollector gc = new GarbageCollector(client, informers, Clock.system(), 2);
            informers.start();
            assertThat(informers.waitForCacheSync(Duration.ofSeconds(10))).isTrue();
            jobs.startWorkers();
            gc.startWorkers();
            try {
                Container c =
                        ContainerBuilder.builder().name("main").image("busybox").build();
                PodTemplateSpec template = new PodTemplateSpec(
                        ObjectMetaBuilder.builder().build(),
                        PodSpecBuilder.builder()
                                .containers(List.of(c))
                                .restartPolicy("Never")
                                .build());
                Job job = client.jobs()
                        .inNamespace("default")
                        .create(new Job(
                                null,
                                null,
                                ObjectMeta.named("default", "tracked"),
                                JobSpecBuilder.builder()
                                        .template(template)
                                        .parallelism(3)
                                        .completions(3)
                                        .build(),
                                null));
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> podsOf(client, job).size() == 3);
                assertThat(podsOf(client, job))
                        .allSatisfy(p ->
                                assertThat(p.metadata().finalizersOrEmpty()).contains(Job.TRACKING_FINALIZER));

                client.jobs().inNamespace("default").delete(job.name(), DeleteOptions.propagation("Background"));
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> podsOf(client, job).isEmpty());
                assertThat(client.jobs().inNamespace("default").find(job.name()))
                        .isEmpty();
            } finally {
                gc.stop(Duration.ofSeconds(5));
                jobs.close();
                informers.shutdown();
                events.close();
            }
        }
    }

    private static List<Pod> podsOf(KubeClient client, Job job) {
        return client.pods().inNamespace("default").list().stream()
                .filter(p -> p.metadata().ownerReferencesOrEmpty().stream()
                        .anyMatch(r -> job.uid().equals(r.uid())))
                .toList();
    }
}
