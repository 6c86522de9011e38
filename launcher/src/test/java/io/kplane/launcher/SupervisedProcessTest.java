package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor restarts a crashed component and stops a running one with its children. */
class SupervisedProcessTest {
    @TempDir
    Path dir;

    private Path entryPoint(String body) throws Exception {
        Path script = dir.resolve("entry.sh");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void crashedComponentIsReportedAndRestarted() throws Exception {
        Path runs = dir.resolve("runs");
        Path script = entryPoint("echo run >> " + runs + "; exit 3");
        List<String> reports = new CopyOnWriteArrayList<>();
        SupervisedProcess p = new SupervisedProcess(
                new ComponentSpec("crasher", "crasher", List.of(), Map.of(), 1, "/healthz", List.of()),
                script,
                dir.resolve("logs"),
                reports::add);
        p.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> p.restarts() >= 1 && Files.readAllLines(runs).size() >= 2);
        p.stop(Duration.ofSeconds(5));
        assertThat(reports).anyMatch(r -> r.equals("crasher exited with code 3; see " + p.logFile()));
        assertThat(reports).anyMatch(r -> r.startsWith("restarting crasher in 1s"));
        assertThat(p.lastExitCode()).isEqualTo(3);
        assertThat(p.state()).isEqualTo(SupervisedProcess.State.STOPPED);
    }

    @Test
    void stopTerminatesTheComponentAndItsChildren() throws Exception {
        Path childPid = dir.resolve("child.pid");
        Path script =
                entryPoint("sleep 300 & echo $! > " + childPid + "; trap 'exit 0' TERM; while true; do sleep 1; done");
        SupervisedProcess p = new SupervisedProcess(
                new ComponentSpec("sleeper", "sleeper", List.of(), Map.of(), 1, "/healthz", List.of()),
                script,
                dir.resolve("logs"),
                r -> {});
        p.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        Files.exists(childPid) && !Files.readString(childPid).isBlank());
        long child = Long.parseLong(Files.readString(childPid).trim());
        assertThat(ProcessHandle.of(child)).isPresent();
        p.stop(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
        assertThat(p.restarts()).isZero();
    }

    @Test
    void aPortAnsweringFromAnotherProcessIsNotTheComponentsHealth() throws Exception {
        try (PortSquatter other = new PortSquatter()) {
            SupervisedProcess p = new SupervisedProcess(
                    new ComponentSpec(
                            "apiserver", "apiserver", List.of(), Map.of(), other.port(), "/healthz", List.of()),
                    entryPoint("exec sleep 300"),
                    dir.resolve("logs"),
                    r -> {});
            p.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> p.pid() > 0);
                p.probe();
                assertThat(other.connections())
                        .as("the probe reached the other server")
                        .isPositive();
                assertThat(p.healthy()).isFalse();
                assertThat(p.portConflict())
                        .isEqualTo("port " + other.port() + " answers, but another process than apiserver (pid "
                                + p.pid() + ") listens on it");
            } finally {
                p.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void theComponentsOwnListenerIsItsHealth() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        SupervisedProcess p = new SupervisedProcess(
                new ComponentSpec("endpoint", "endpoint", List.of(), Map.of(), port, "/healthz", List.of()),
                entryPoint("exec '" + java + "' -cp '" + System.getProperty("java.class.path") + "' "
                        + HealthEndpointMain.class.getName() + " " + port),
                dir.resolve("logs"),
                r -> {});
        p.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                p.probe();
                return p.healthy();
            });
            assertThat(p.portConflict()).isNull();
        } finally {
            p.stop(Duration.ofSeconds(5));
        }
    }
}
