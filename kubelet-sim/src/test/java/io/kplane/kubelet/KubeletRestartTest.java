package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.apiserver.testing.TestApiServer;
import io.kplane.client.ClientConfig;
import io.kplane.client.KubeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a kubelet-sim process and a restart on the same root directory: nothing runs twice
 * (each container appends a line to a file and the test counts them), lost host processes are
 * reported as failed, Docker containers are re-attached, and pods created meanwhile start.
 */
class KubeletRestartTest {
    static TestApiServer api;
    static KubeClient client;
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        client = KubeClient.create(ClientConfig.forServer(api.url()));
        work = Files.createTempDirectory("kubelet-restart");
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
    }

    private static Pod pod(String name, String node, String restartPolicy, String script) {
        return PodManifests.shPod(name, node, restartPolicy, script);
    }

    private static Optional<Pod> find(String name) {
        return client.pods().inNamespace("default").find(name);
    }

    private static Pod awaitPod(String name, Predicate<Pod> condition) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> find(name).filter(condition).isPresent());
        return find(name).orElseThrow();
    }

    private static ContainerStatus main(Pod p) {
        return p.status().containerStatuses().get(0);
    }

    private static long lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    @Test
    void processRuntimeNeverRunsAContainerTwiceAcrossAKill9() throws Exception {
        String node = "restart-proc";
        Path root = work.resolve(node);
        Path log = work.resolve(node + ".log");
        Path done = work.resolve("done.txt");
        Path long1 = work.resolve("long.txt");
        Path later = work.resolve("later.txt");
        KubeletProcess kubelet = KubeletProcess.start(api.url(), node, root, log, "process");
        try {
            client.pods().inNamespace("default").create(pod("finished", node, "Never", "echo run >> " + done));
            client.pods()
                    .inNamespace("default")
                    .create(pod("longrun", node, "Never", "echo run >> " + long1 + "; sleep 60"));
            awaitPod("finished", p -> PodStatus.SUCCEEDED.equals(p.phase()));
            awaitPod("longrun", p -> PodStatus.RUNNING.equals(p.phase()));

            kubelet.kill9();
            client.pods().inNamespace("default").create(pod("later", node, "Never", "echo run >> " + later));
            kubelet = KubeletProcess.start(api.url(), node, root, log, "process");

            // the host process cannot be re-attached: reported lost (and killed), never started again
            Pod lost = awaitPod("longrun", p -> PodStatus.FAILED.equals(p.phase()));
            assertThat(main(lost).state().terminated().reason()).isEqualTo("ContainerStatusUnknown");
            assertThat(main(lost).state().terminated().exitCode()).isEqualTo(137);
            assertThat(main(lost).restartCount()).isZero();
            awaitPod("later", p -> PodStatus.SUCCEEDED.equals(p.phase()));
            assertThat(find("finished").orElseThrow().phase()).isEqualTo(PodStatus.SUCCEEDED);
            assertThat(lines(done)).isEqualTo(1);
            assertThat(lines(long1)).isEqualTo(1);
            assertThat(lines(later)).isEqualTo(1);
        } finally {
            kubelet.close();
        }
    }

    @Test
    void onFailureRestartsCountEveryRunExactlyOnceAcrossAKill9() throws Exception {
        String node = "restart-onfailure";
        Path root = work.resolve(node);
        Path log = work.resolve(node + ".log");
        Path runs = work.resolve("runs.txt");
        KubeletProcess kubelet = KubeletProcess.start(api.url(), node, root, log, "process");
        try {
            client.pods()
                    .inNamespace("default")
                    .create(pod("flaky", node, "OnFailure", "echo run >> " + runs + "; sleep 0.5; exit 1"));
            awaitPod(
                    "flaky",
                    p -> p.status() != null
                            && !p.status().containerStatusesOrEmpty().isEmpty()
                            && main(p).restartCount() >= 2);
            kubelet.kill9();
            kubelet = KubeletProcess.start(api.url(), node, root, log, "process");
            Pod p = awaitPod("flaky", x -> main(x).restartCount() >= 5);
            client.pods().inNamespace("default").delete("flaky");
            await().atMost(Duration.ofSeconds(30)).until(() -> find("flaky").isEmpty());
            // every start the status counts is one line; a start is never repeated
            long starts = lines(runs);
            assertThat(starts).isBetween((long) main(p).restartCount() + 1, (long) main(p).restartCount() + 3);
        } finally {
            kubelet.close();
        }
    }

    @Test
    void dockerRuntimeReattachesToContainersThatKeptRunning() throws Exception {
        Optional<String> why = TestImages.dockerUnavailable();
        Assumptions.assumeTrue(why.isEmpty(), () -> "docker re-attach test skipped: " + why.orElse(""));
        String image;
        try (var probe = new io.kplane.kubelet.runtime.DockerRuntime(
                System.getenv("DOCKER_HOST"), io.kplane.client.time.Clock.system())) {
            image = TestImages.workingBusybox(probe.client());
        }
        String node = "restart-docker";
        Path root = work.resolve(node);
        Path log = work.resolve(node + ".log");
        KubeletProcess kubelet = KubeletProcess.start(api.url(), node, root, log, "docker");
        try {
            Pod pod = pod("survivor", node, "Never", "echo before; sleep 4; echo after");
            pod = pod.withSpec(pod.spec()
                    .withContainers(List.of(
                            pod.spec().containers().get(0).withImage(image).withImagePullPolicy("IfNotPresent"))));
            client.pods().inNamespace("default").create(pod);
            Pod running = awaitPod("survivor", p -> PodStatus.RUNNING.equals(p.phase()));
            String containerId = main(running).containerID();
            kubelet.kill9();
            kubelet = KubeletProcess.start(api.url(), node, root, log, "docker");
            Pod done = awaitPod("survivor", p -> PodStatus.SUCCEEDED.equals(p.phase()));
            assertThat(main(done).containerID()).isEqualTo(containerId);
            assertThat(main(done).restartCount()).isZero();
            assertThat(main(done).state().terminated().exitCode()).isZero();
        } finally {
            kubelet.close();
        }
    }
}
