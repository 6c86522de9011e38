package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./kplane up} from the packaged launcher jar in a fresh state directory, on free ports, as the
 * end-to-end tests start it: returns once the launcher's state file says every component is ready.
 */
record LaunchedStack(Path stateDir, Process launcher, String server) {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** @param componentArgs {@code --component-arg=...} values passed through to the components */
    static LaunchedStack up(String stateDirPrefix, int nodes, List<String> componentArgs) throws Exception {
        Path stateDir = Files.createTempDirectory(stateDirPrefix);
        int apiPort = freePort();
        List<String> command = new ArrayList<>(List.of(
                javaBinary(),
                "-jar",
                launcherJar(),
                "up",
                "--state-dir",
                stateDir.toString(),
                "--port",
                String.valueOf(apiPort),
                "--db-port",
                String.valueOf(freePort()),
                "--nodes",
                String.valueOf(nodes),
                "--free-ports"));
        componentArgs.forEach(a -> command.add("--component-arg=" + a));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(stateDir.resolve("launcher.out").toFile());
        pb.environment().put("KPLANE_HOME", ROOT.toString());
        pb.environment().put("CI", "true");
        LaunchedStack stack = new LaunchedStack(stateDir, pb.start(), "http://127.0.0.1:" + apiPort);
        try {
            awaitReady(stack);
        } catch (RuntimeException | AssertionError e) {
            // a stack that never became ready must not outlive the test that started it
            down(stack.launcher(), stateDir);
            throw e;
        }
        return stack;
    }

    private static void awaitReady(LaunchedStack stack) {
        await("stack ready")
                .atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    assertThat(stack.launcher().isAlive())
                            .as("launcher alive; output:\n%s", stack.launcherOutput())
                            .isTrue();
                    StateFile s = StateFile.read(stack.stateDir());
                    return s != null && s.ready();
                });
    }

    String launcherOutput() {
        try {
            return Files.readString(stateDir.resolve("launcher.out"));
        } catch (IOException e) {
            return "(no output)";
        }
    }

    /**
     * Stops a stack the way a user does, {@code kplane down} from another terminal, waits for the
     * launcher, then kills whatever component is left so a slow stop cannot leak processes into the
     * next test class.
     */
    static void down(Process launcher, Path stateDir) throws Exception {
        List<ProcessHandle> children = launcher.descendants().toList();
        new ProcessBuilder(javaBinary(), "-jar", launcherJar(), "down", "--state-dir", stateDir.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor(90, TimeUnit.SECONDS);
        launcher.waitFor(90, TimeUnit.SECONDS);
        children.forEach(ProcessHandle::destroyForcibly);
    }

    static String launcherJar() {
        return ROOT.resolve("launcher/target/kplane-launcher.jar").toString();
    }

    static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
