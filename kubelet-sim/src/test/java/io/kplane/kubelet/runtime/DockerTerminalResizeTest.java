package io.kplane.kubelet.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Why a docker-runtime {@code kubectl attach -t} ended at its size plus one on Podman, and that it no longer
 * does, made deterministic: the container's {@code conmon} is stopped (SIGSTOP) while two resizes are sent,
 * so both wait in its control FIFO and it reads them as one chunk when it is continued — what happens by
 * chance when kubectl's size-plus-one and size reach the engine a moment apart.
 *
 * <ul>
 *   <li>The engine alone: two raw {@code POST /containers/{id}/resize} leave the terminal at the
 *       <em>first</em> size where conmon is older than 2.2.0 (Debian 12: 2.1.6; containers/conmon
 *       2a1dda8), at the second with a fixed conmon.
 *   <li>The runtime: the same pair through an attach session ({@link DockerExec}, i.e. what the kubelet's
 *       streaming server calls) ends at the second size on either ({@link DockerTerminalResizer}'s repeat).
 * </ul>
 *
 * Needs the engine's conmon on this machine (a local Podman, as CI's); skipped, saying why, elsewhere.
 */
class DockerTerminalResizeTest {
    private static final Pattern CONMON_VERSION = Pattern.compile("conmon version (\\d+)\\.(\\d+)\\.(\\d+)");

    private DockerRuntime runtime;
    private DockerClient docker;
    private String id;
    private long conmon;
    private String conmonBinary;

    @BeforeEach
    void ttyContainerAndItsConmon() throws Exception {
        Optional<String> unavailable = TestImages.dockerUnavailable();
        Assumptions.assumeTrue(
                unavailable.isEmpty(), () -> "docker terminal resize test skipped: " + unavailable.get());
        runtime = new DockerRuntime(System.getenv("DOCKER_HOST"), Clock.system());
        docker = runtime.client();
        String image = TestImages.workingBusybox(docker);
        id = docker.createContainerCmd(image)
                .withCmd("sh")
                .withTty(true)
                .withStdinOpen(true)
                .withLabels(Map.of("io.kplane.test", "DockerTerminalResizeTest"))
                .exec()
                .getId();
        docker.startContainerCmd(id).exec();
        // a terminal of 0x0 has no size for stty: give it one (again on each try: conmon may still be starting)
        await("the container's terminal at 24x80")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(
                        () -> {
                            docker.resizeContainerCmd(id).withSize(24, 80).exec();
                            return terminalSize();
                        },
                        "24 80"::equals);
        Optional<ProcessHandle> monitor = conmonOf(id);
        Assumptions.assumeTrue(
                monitor.isPresent(),
                "docker terminal resize test skipped: no conmon for the container on this machine "
                        + "(the engine is not a local Podman)");
        conmon = monitor.get().pid();
        conmonBinary = monitor.get().info().command().orElse("conmon");
    }

    @AfterEach
    void removeContainer() {
        if (conmon > 0) {
            try {
                signal("CONT"); // whatever happened, never leave it stopped
            } catch (RuntimeException | AssertionError e) {
                System.err.println("DockerTerminalResizeTest: conmon " + conmon + " not continued: " + e);
            }
        }
        if (id != null) {
            try {
                docker.removeContainerCmd(id).withForce(true).exec();
            } catch (RuntimeException e) {
                System.err.println("DockerTerminalResizeTest: container " + id + " not removed: " + e);
            }
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void twoResizesReadAsOneChunkByConmon() throws Exception {
        signal("STOP");
        try {
            docker.resizeContainerCmd(id).withSize(46, 124).exec();
            docker.resizeContainerCmd(id).withSize(45, 123).exec();
        } finally {
            signal("CONT");
        }
        String expected = chunkBugFixedIn(conmonVersion()) ? "45 123" : "46 124";
        await("the engine's own result for the pair (conmon " + conmonVersion() + ")")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(this::terminalSize, expected::equals);
    }

    @Test
    void anAttachSessionEndsAtTheLastSizeOfThePair() throws Exception {
        ExecSession attach = runtime.exec("docker://" + id, new ExecSpec(List.of(), true, true));
        try {
            signal("STOP");
            try {
                attach.resize(124, 46); // kubectl attach: its size plus one, then its size
                attach.resize(123, 45);
            } finally {
                signal("CONT");
            }
            await("the terminal at the attach's size")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(this::terminalSize, "45 123"::equals);
        } finally {
            attach.abort();
        }
    }

    /** {@code stty size} of the container's main process's terminal (rows, columns). */
    private String terminalSize() throws Exception {
        ExecSession stty = runtime.exec(
                "docker://" + id, new ExecSpec(List.of("stty", "-F", "/proc/1/fd/0", "size"), false, false));
        String out = new String(stty.stdout().readAllBytes(), StandardCharsets.UTF_8).trim();
        stty.exitCode().get(30, TimeUnit.SECONDS);
        return out;
    }

    /** The container's own conmon (not an exec's): {@code conmon ... -c ID -u ID ...}. */
    private static Optional<ProcessHandle> conmonOf(String containerId) throws IOException {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .toList()) {
                String cmdline;
                try {
                    cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    continue; // gone, or not ours to read
                }
                List<String> args = List.of(cmdline.split("\0"));
                if (!args.isEmpty()
                        && args.get(0).endsWith("conmon")
                        && args.contains("-u")
                        && containerId.equals(args.get(args.indexOf("-u") + 1))) {
                    return ProcessHandle.of(Long.parseLong(proc.getFileName().toString()));
                }
            }
        }
        return Optional.empty();
    }

    private String conmonVersion() throws Exception {
        Process p = new ProcessBuilder(conmonBinary, "--version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        Matcher m = CONMON_VERSION.matcher(out);
        assertThat(m.find()).as("conmon --version: %s", out).isTrue();
        return m.group(1) + "." + m.group(2) + "." + m.group(3);
    }

    /** conmon 2.2.0 processes each line of a chunk (containers/conmon 2a1dda8). */
    private static boolean chunkBugFixedIn(String version) {
        String[] v = version.split("\\.");
        int major = Integer.parseInt(v[0]);
        int minor = Integer.parseInt(v[1]);
        return major > 2 || (major == 2 && minor >= 2);
    }

    private void signal(String name) {
        try {
            // the shell's kill builtin: no procps needed
            Process kill = new ProcessBuilder("sh", "-c", "kill -" + name + " " + conmon)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue())
                    .as("kill -%s %s: %s", name, conmon, out)
                    .isZero();
        } catch (IOException e) {
            throw new IllegalStateException("kill -" + name + " " + conmon + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
