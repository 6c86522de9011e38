package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kplane up} refuses a port another process listens on before it starts anything: the real
 * launcher in a process of its own, a real socket held open on the port (answering 200 like another API
 * server, whose answer the launcher's readiness probe once took for its own).
 */
class FixedPortsTest {
    @TempDir
    Path dir;

    @Test
    void upDetachedRefusesAnApiPortInUseWithOneLineAndStartsNothing() throws Exception {
        try (PortSquatter other = new PortSquatter()) {
            Result r = launcher("up", "-d", "--free-ports", "--port", port(other), "--db-port", freePort());
            assertThat(r.code).as(r.output).isEqualTo(1);
            assertThat(r.output.strip())
                    .isEqualTo("error: port " + other.port() + " (apiserver) is already in use on 127.0.0.1: "
                            + "stop what listens there, choose another with --port");
            assertNothingStarted(other);
        }
    }

    @Test
    void upInTheForegroundRefusesAnApiPortInUseToo() throws Exception {
        try (PortSquatter other = new PortSquatter()) {
            Result r = launcher("up", "--free-ports", "--port", port(other), "--db-port", freePort());
            assertThat(r.code).as(r.output).isEqualTo(1);
            assertThat(r.output.strip()).startsWith("error: port " + other.port() + " (apiserver) is already in use");
            assertNothingStarted(other);
        }
    }

    @Test
    void upRefusesTheDatabasePortInUse() throws Exception {
        try (PortSquatter other = new PortSquatter()) {
            Result r = launcher("up", "-d", "--free-ports", "--port", freePort(), "--db-port", port(other));
            assertThat(r.code).as(r.output).isEqualTo(1);
            assertThat(r.output.strip())
                    .isEqualTo("error: port " + other.port() + " (postgres) is already in use on 127.0.0.1: "
                            + "stop what listens there, choose another with --db-port");
            assertNothingStarted(other);
        }
    }

    @Test
    void withoutFreePortsTheFixedTableIsClaimedToo() {
        StackOptions o = StackOptions.local(dir, "127.0.0.1", 6443, 15432, null, 2, "process", false);
        assertThat(FixedPorts.claims(o))
                .extracting(FixedPorts.Claim::port)
                .containsExactly(
                        6443, 15432, 10261, 10262, 10263, 10264, 10259, 10265, 10266, 10267, 10250, 10251, 10252,
                        10253);
        assertThat(FixedPorts.claims(o.withFreePorts(true)))
                .extracting(FixedPorts.Claim::component)
                .containsExactly("apiserver", "postgres");
        assertThat(FixedPorts.claims(
                        StackOptions.local(dir, "0.0.0.0", 6443, 15432, "postgresql://db/x", 1, "process", false)
                                .withFreePorts(true)))
                .containsExactly(new FixedPorts.Claim("apiserver", "0.0.0.0", 6443, "choose another with --port"));
    }

    @Test
    void aPortIsFreeUntilSomethingListensOnIt() throws Exception {
        int port;
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = held.getLocalPort();
            assertThat(FixedPorts.isFree("127.0.0.1", port)).isFalse();
            assertThat(FixedPorts.isFree("0.0.0.0", port)).isFalse();
        }
        assertThat(FixedPorts.isFree("127.0.0.1", port)).isTrue();
    }

    @Test
    void thePostmasterLeftOnTheStacksOwnDataDirectoryDoesNotCount() throws Exception {
        Path db = Files.createDirectories(dir.resolve("db"));
        // postmaster.pid: pid, data directory, start time, port, ... (this JVM stands in for the live postmaster)
        Files.writeString(db.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n" + db + "\n1\n25432\n");
        assertThat(FixedPorts.heldByLeftPostmaster(db, 25432)).isTrue();
        assertThat(FixedPorts.heldByLeftPostmaster(db, 25433)).isFalse();
        Files.writeString(db.resolve("postmaster.pid"), "999999999\n" + db + "\n1\n25432\n");
        assertThat(FixedPorts.heldByLeftPostmaster(db, 25432)).isFalse();
    }

    private void assertNothingStarted(PortSquatter other) {
        assertThat(StateFile.path(dir.resolve("state"))).doesNotExist();
        assertThat(dir.resolve("state").resolve("logs")).doesNotExist();
        assertThat(other.connections())
                .as("connections the launcher made to the other server")
                .isZero();
    }

    private record Result(int code, String output) {}

    /** The launcher's main in a JVM of its own, on this test's class path, with a state directory of the test's. */
    private Result launcher(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                LauncherMain.class.getName()));
        command.addAll(List.of(args));
        command.addAll(List.of("--state-dir", dir.resolve("state").toString()));
        Path out = dir.resolve("launcher.out");
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        // nothing of a real stack to start from here, should the check let it through
        pb.environment()
                .put("KPLANE_HOME", Files.createDirectories(dir.resolve("home")).toString());
        pb.environment().put("CI", "true");
        Process p = pb.start();
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as("the launcher returned; output:%n%s", Files.readString(out))
                    .isTrue();
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    private static String port(PortSquatter s) {
        return Integer.toString(s.port());
    }

    private static String freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return Integer.toString(s.getLocalPort());
        }
    }
}
