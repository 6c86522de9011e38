package io.kplane.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.kubelet.FaultInjectingRuntime.Step;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Engine failures at each step of a container's life never make the kubelet run an attempt twice:
 * once an attempt is recorded, a failure leads to "re-attach to it or kill it", never to a fresh start
 * next to it. Each container appends a line to a file per run, so a second run is counted, not guessed.
 */
class EngineFailuresTest {
    static KubeletFixture env;
    static FaultInjectingRuntime faults;
    static Path runs;

    @BeforeAll
    static void start() throws Exception {
        runs = Files.createTempDirectory("engine-failures");
        env = new KubeletFixture("faulty-node", "process", null, r -> faults = new FaultInjectingRuntime(r));
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    /**
     * A pod whose container writes "start PID" when a run begins and "end PID" when it ends after
     * {@code seconds}, then exits 0 ({@code $$$$} is the shell's {@code $$} after Kubernetes' expansion).
     */
    static Pod countingPod(String name, String restartPolicy, double seconds) {
        Path file = runs.resolve(name);
        return PodManifests.shPod(
                name,
                "faulty-node",
                restartPolicy,
                "echo start $$$$ >> " + file + "; sleep " + seconds + "; echo end $$$$ >> " + file + "; exit 0");
    }

    /** The "start PID" lines: one per run. */
    static List<String> runsOf(String name) throws Exception {
        return lines(name).stream().filter(l -> l.startsWith("start ")).toList();
    }

    static List<String> lines(String name) throws Exception {
        Path file = runs.resolve(name);
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /** No run began while another was still going: starts and ends alternate. */
    static void assertNeverTwoAtOnce(String name) throws Exception {
        List<String> lines = lines(name);
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).startsWith("start ")) {
                assertThat(lines.get(i - 1))
                        .as("run before line %d of %s", i, lines)
                        .startsWith("end ");
            }
        }
    }

    static ContainerStatus main(Pod pod) {
        return pod.status().containerStatuses().get(0);
    }

    @Test
    void aFailureAfterTheContainerStartedReattachesInsteadOfStartingAgain() throws Exception {
        faults.fail("after-start", Step.START_AFTER_RUNNING, 1);
        env.create(countingPod("after-start", "OnFailure", 2));
        Pod pod = env.awaitPhase("after-start", PodStatus.SUCCEEDED);
        assertThat(runsOf("after-start")).hasSize(1);
        assertNeverTwoAtOnce("after-start");
        assertThat(main(pod).restartCount()).isZero();
        assertThat(main(pod).state().terminated().exitCode()).isZero();
    }

    @Test
    void reattachFailuresKeepTheAttemptUnknownUntilItIsResolved() throws Exception {
        faults.fail("reattach", Step.START_AFTER_RUNNING, 1).fail("reattach", Step.REATTACH, 3);
        env.create(countingPod("reattach", "Always", 2));
        // with restartPolicy Always a presumed-dead attempt would be restarted at once, next to the first
        await().atMost(Duration.ofSeconds(60)).until(() -> runsOf("reattach").size() >= 3);
        env.client.pods().inNamespace("default").delete("reattach");
        assertNeverTwoAtOnce("reattach");
        Pod pod = env.find("reattach").orElse(null);
        if (pod != null) {
            assertThat(main(pod).lastState().terminated().exitCode()).isZero();
        }
    }

    @Test
    void aFailureBeforeTheEngineCreatedAnythingIsPresumedToHaveRunAndNeverRunsTwice() throws Exception {
        faults.fail("before-create", Step.START_BEFORE_CREATE, 1);
        env.create(countingPod("before-create", "OnFailure", 0.2));
        Pod pod = env.awaitPhase("before-create", PodStatus.SUCCEEDED);
        // host processes cannot be looked up: the unknown attempt is recorded as lost, the next one runs
        assertThat(runsOf("before-create")).hasSize(1);
        assertThat(main(pod).restartCount()).isEqualTo(1);
        assertThat(main(pod).lastState().terminated().reason()).isEqualTo("ContainerStatusUnknown");
    }

    @Test
    void aFailureWhilePreparingTheStartIsRetriedWithoutCountingAnAttempt() throws Exception {
        faults.fail("prepare", Step.ENSURE_IMAGE, 2);
        env.create(countingPod("prepare", "Never", 0.2));
        Pod pod = env.awaitPhase("prepare", PodStatus.SUCCEEDED);
        assertThat(runsOf("prepare")).hasSize(1);
        assertThat(main(pod).restartCount()).isZero();
    }

    @Test
    void failuresToStopOrRemoveAreRetriedAndTheContainerDoesNotOutliveItsPod() throws Exception {
        faults.fail("stop", Step.STOP, 2);
        env.create(countingPod("stop", "Never", 60));
        await().atMost(Duration.ofSeconds(30)).until(() -> runsOf("stop").size() == 1);
        long pid = Long.parseLong(
                runsOf("stop").get(0).substring("start ".length()).trim());
        env.client.pods().inNamespace("default").delete("stop");
        await().atMost(Duration.ofSeconds(30)).until(() -> env.find("stop").isEmpty());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();

        faults.fail("remove", Step.REMOVE, 2);
        env.create(countingPod("remove", "Never", 0.2));
        env.awaitPhase("remove", PodStatus.SUCCEEDED);
        assertThat(runsOf("remove")).hasSize(1);
    }
}
