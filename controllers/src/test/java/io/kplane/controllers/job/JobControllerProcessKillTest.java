package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobCondition;
import io.kplane.api.batch.JobStatus;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.KubeClient;
import io.kplane.controllers.ControllersMain;
import io.kplane.controllers.testing.ControllerJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the Job controller process in the middle of a Job, twice, each time restarted: the
 * restarted process converges from the API server's state alone. The final counts are exact, no pod
 * is counted twice, and a watch proves that at no revision were more than {@code parallelism} pods
 * active.
 */
class JobControllerProcessKillTest {
    private static final String NS = "default";
    private static final int COMPLETIONS = 60;
    private static final int PARALLELISM = 5;

    private TestApiServer api;
    private KubeClient client;
    private final List<ControllerJvm> processes = new ArrayList<>();

    @BeforeEach
    void startApiServer() {
        api = TestApiServer.start();
        client = KubeClient.forServer(api.url());
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        for (ControllerJvm p : processes) {
            p.kill();
        }
        api.close();
    }

    /** {@code java -cp <test classpath> ControllersMain job-controller ...}: a separate JVM, as deployed. */
    private ControllerJvm startController(String logName) throws Exception {
        ControllerJvm process = ControllerJvm.startLoggingTo(
                Path.of("target", logName),
                List.of("-Xmx256m"),
                ControllersMain.class,
                "job-controller",
                "--server",
                api.url(),
                "--leader-elect=false",
                "--health-port",
                "0",
                "--pod-event-batch-period",
                "50ms",
                "--pod-failure-backoff",
                "100ms");
        processes.add(process);
        return process;
    }

    private int succeeded(String name) {
        JobStatus s = client.jobs().inNamespace(NS).get(name).status();
        return s == null || s.succeeded() == null ? 0 : s.succeeded();
    }

    @Test
    void killNineMidJobAndRestartCountsEveryPodOnceAndNeverExceedsParallelism() throws Exception {
        String name = JobControllerIntegrationTest.uniqueName("kill");
        Job job = JobControllerIntegrationTest.job(
                name, "Never", s -> s.completions(COMPLETIONS).parallelism(PARALLELISM));
        try (JobRunMonitor monitor = JobRunMonitor.start(client, NS, name);
                FakeKubelet kubelet = FakeKubelet.start(client, NS, name, (k, pod, n) -> {
                    k.running(pod, 0);
                    k.after(Duration.ofMillis(ThreadLocalRandom.current().nextInt(50, 250)), pod, () -> k.succeed(pod));
                })) {
            ControllerJvm first = startController("job-kill-1.log");
            client.jobs().inNamespace(NS).create(job);

            await().atMost(Duration.ofSeconds(60)).until(() -> succeeded(name) >= COMPLETIONS / 4);
            first.kill(); // SIGKILL: no shutdown hook, whatever was in flight is lost
            ControllerJvm second = startController("job-kill-2.log");

            await().atMost(Duration.ofSeconds(60)).until(() -> succeeded(name) >= COMPLETIONS * 2 / 3);
            second.kill();
            startController("job-kill-3.log");

            await().atMost(Duration.ofSeconds(60)).until(() -> {
                JobStatus s = client.jobs().inNamespace(NS).get(name).status();
                return s != null && s.hasTrueCondition(JobCondition.COMPLETE);
            });
            JobStatus status = client.jobs().inNamespace(NS).get(name).status();
            assertThat(status.succeeded()).isEqualTo(COMPLETIONS);
            assertThat(status.failed() == null ? 0 : status.failed()).isZero();
            assertThat(monitor.succeededPods()).as("pods that ran to success").isEqualTo(COMPLETIONS);
            assertThat(monitor.maxActive())
                    .as("most pods active at any revision")
                    .isLessThanOrEqualTo(PARALLELISM);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                            client.pods().inNamespace(NS).list())
                    .filteredOn(p -> p.metadata().name().startsWith(name))
                    .allSatisfy(
                            p -> assertThat(p.metadata().finalizersOrEmpty()).doesNotContain(Job.TRACKING_FINALIZER)));
            monitor.assertCountsNeverRanAhead(false);
        }
    }
}
