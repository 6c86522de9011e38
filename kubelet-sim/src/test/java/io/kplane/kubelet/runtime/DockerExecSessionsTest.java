package io.kplane.kubelet.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectExecResponse;
import io.kplane.client.time.Clock;
import io.kplane.kubelet.TestImages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What N finished {@code kubectl exec}s leave behind with the docker runtime, against the real engine
 * ({@code DOCKER_HOST}; skipped, saying why, without one).
 *
 * <p>Ours: nothing. Every session is over on the engine (inspected: not running, its exit code
 * recorded), no exec'd process is left in the container, and the kubelet holds no connection per
 * session (the hijacked {@code /exec/{id}/start} stream is closed when its output ends).
 *
 * <p>The engine's: Podman's Docker-API service keeps each exec session, and its two {@code conmon}
 * processes, for {@code exit_command_delay} (containers.conf, default 300 s) after it ended, "to mimic
 * Docker's exec cleanup behavior" (its compat exec handler), and the Docker API has no call to remove an
 * exec session. They are counted and printed here, not asserted: their lifetime is the engine's setting.
 */
class DockerExecSessionsTest {
    private static final int EXECS = 8;

    private DockerRuntime runtime;
    private DockerClient docker;
    private String id;

    @BeforeEach
    void runningContainer() throws Exception {
        Optional<String> unavailable = TestImages.dockerUnavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "docker exec sessions test skipped: " + unavailable.get());
        runtime = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system());
        docker = runtime.client();
        String image = TestImages.workingBusybox(docker);
        id = docker.createContainerCmd(image)
                .withCmd("sleep", "600")
                .withLabels(Map.of("io.kplane.test", "DockerExecSessionsTest"))
                .exec()
                .getId();
        docker.startContainerCmd(id).exec();
    }

    @AfterEach
    void removeContainer() {
        if (id != null) {
            try {
                docker.removeContainerCmd(id).withForce(true).exec();
            } catch (RuntimeException e) {
                System.err.println("DockerExecSessionsTest: container " + id + " not removed: " + e);
            }
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void finishedExecsLeaveNoSessionProcessOrConnectionOfOurs() throws Exception {
        runExec(List.of("true"), 0); // the docker client's own pooled connection is open from here on
        long socketsBefore = openSockets();

        for (int i = 0; i < EXECS; i++) {
            assertThat(runExec(List.of("sh", "-c", "echo exec-" + i + "; exit " + (i % 3)), i % 3))
                    .isEqualTo("exec-" + i + "\n");
        }

        List<String> sessions = docker.inspectContainerCmd(id).exec().getExecIds();
        assertThat(sessions).as("the engine lists every session it still keeps").hasSizeGreaterThanOrEqualTo(EXECS);
        for (String session : sessions) {
            InspectExecResponse exec = docker.inspectExecCmd(session).exec();
            assertThat(exec.isRunning()).as("session %s running", session).isFalse();
            assertThat(exec.getExitCodeLong()).as("exit code of %s", session).isNotNull();
        }
        // only the container's own process is left inside it
        await("no exec'd process left in the container")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> List.of(docker.topContainerCmd(id).exec().getProcesses())
                                .size()
                        == 1);
        // a session whose hijacked stream stayed open would hold one socket each
        await("the kubelet holds no connection per finished session")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> openSockets() - socketsBefore < EXECS / 2);

        System.out.printf(
                "DockerExecSessionsTest: after %d finished execs the engine keeps %d sessions and %d conmon "
                        + "processes for them (its exit_command_delay); %d sockets open here (%d before)%n",
                EXECS + 1, sessions.size(), conmonsOf(sessions), openSockets(), socketsBefore);
    }

    /** Runs one exec to its end through the runtime (as the streaming server does); returns its stdout. */
    private String runExec(List<String> command, int expectedExit) throws Exception {
        ExecSession exec = runtime.exec("docker://" + id, new ExecSpec(command, false, false));
        String out = new String(exec.stdout().readAllBytes(), StandardCharsets.UTF_8);
        exec.stderr().readAllBytes();
        assertThat(exec.exitCode().get(30, TimeUnit.SECONDS)).isEqualTo(expectedExit);
        return out;
    }

    /** Sockets this JVM has open (Linux {@code /proc/self/fd}). */
    private static long openSockets() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                        } catch (IOException e) {
                            return false; // closed while listing
                        }
                    })
                    .count();
        }
    }

    /** conmon processes on this machine monitoring one of {@code sessions} (0 where the engine is remote). */
    private static long conmonsOf(List<String> sessions) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().orElse("").endsWith("conmon"))
                .filter(p -> {
                    String args = String.join(" ", p.info().arguments().orElse(new String[0]));
                    return sessions.stream().anyMatch(s -> args.contains("-u " + s));
                })
                .count();
    }
}
