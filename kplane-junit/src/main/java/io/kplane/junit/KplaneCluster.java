package io.kplane.junit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A kplane stack started by the kplane launcher ({@code kplane-launcher.jar up}, exactly what
 * {@code ./kplane up} runs): embedded PostgreSQL, the API server, every controller and one kubelet-sim,
 * each its own OS process, on free API/database ports and a temporary state directory. The launcher
 * is the one piece that knows how to start, supervise and stop the components; this class only runs
 * it and reads the state file it writes.
 */
public final class KplaneCluster implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(4);

    private final Path stateDir;
    private final Process launcher;
    private final String server;
    private final KubeHttp http;
    private Duration startDuration;

    private KplaneCluster(Path stateDir, Process launcher, String server) {
        this.stateDir = stateDir;
        this.launcher = launcher;
        this.server = server;
        this.http = new KubeHttp(server);
    }

    /**
     * Starts a stack from the distribution at {@code home} and returns once every component is healthy.
     *
     * @param componentArgs {@code NAME=ARG} pairs passed to the launcher's {@code --component-arg}
     */
    public static KplaneCluster start(Path home, List<String> componentArgs) {
        long begin = System.nanoTime();
        try {
            Path stateDir = Files.createTempDirectory("kplane-junit");
            int apiPort = freePort();
            List<String> command = new ArrayList<>(List.of(
                    javaBinary(),
                    "-Xmx128m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-jar",
                    KplaneHome.launcherJar(home).toString(),
                    "up",
                    "--state-dir",
                    stateDir.toString(),
                    "--port",
                    String.valueOf(apiPort),
                    "--db-port",
                    String.valueOf(freePort()),
                    "--nodes",
                    "1",
                    "--free-ports"));
            componentArgs.forEach(a -> command.add("--component-arg=" + a));
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(stateDir.resolve("launcher.out").toFile());
            pb.environment().put("KPLANE_HOME", home.toString());
            pb.environment().put("CI", "true"); // no live status table in the output file
            KplaneCluster cluster = new KplaneCluster(stateDir, pb.start(), "http://127.0.0.1:" + apiPort);
            try {
                cluster.awaitReady();
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            cluster.startDuration = Duration.ofNanos(System.nanoTime() - begin);
            return cluster;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start kplane: " + e.getMessage(), e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!launcher.isAlive()) {
                throw new IllegalStateException("the kplane launcher exited:\n" + launcherOutput());
            }
            JsonNode state = state();
            if (state != null && state.path("ready").asBoolean()) {
                return;
            }
            try {
                // the condition lives in another process (its state file): poll it
                launcher.waitFor(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("kplane was not ready within " + READY_TIMEOUT + ":\n" + launcherOutput());
    }

    /** The API server's URL. */
    public String server() {
        return server;
    }

    /** The kubeconfig the launcher wrote (context's namespace: {@code default}). */
    public Path kubeconfig() {
        return stateDir.resolve("kubeconfig");
    }

    /** The launcher's state directory: {@code launcher.out} and each component's log under {@code logs/}. */
    public Path stateDir() {
        return stateDir;
    }

    /** From launching to every component healthy. */
    public Duration startDuration() {
        return startDuration;
    }

    /** The cluster clock ({@code clocks.kplane.io/cluster}). */
    public ClusterClock clock() {
        return new ClusterClock(http);
    }

    /** Resident memory of the whole stack: the launcher and every component process, in MiB. */
    public long residentMemoryMiB() {
        return Stream.concat(Stream.of(launcher.toHandle()), launcher.descendants())
                        .mapToLong(p -> ProcessMemory.residentKiB(p.pid()))
                        .sum()
                / 1024;
    }

    /** The health/metrics (and lens) port of a component of the stack, e.g. {@code job-controller}. */
    public OptionalInt componentPort(String component) {
        JsonNode state = state();
        if (state != null) {
            for (JsonNode c : state.path("components")) {
                if (c.path("name").asText().equals(component)) {
                    return OptionalInt.of(c.path("healthPort").asInt());
                }
            }
        }
        return OptionalInt.empty();
    }

    KubeHttp http() {
        return http;
    }

    String launcherOutput() {
        try {
            return Files.readString(stateDir.resolve("launcher.out"));
        } catch (IOException e) {
            return "(no launcher output)";
        }
    }

    private JsonNode state() {
        Path file = stateDir.resolve("state.json");
        try {
            return Files.exists(file) ? KubeHttp.JSON.readTree(Files.readString(file)) : null;
        } catch (IOException e) {
            return null; // being replaced at this instant: read it again next time
        }
    }

    /** Stops the stack the way Ctrl-C on {@code ./kplane up} does: the launcher stops every component. */
    @Override
    public void close() {
        List<ProcessHandle> components = launcher.descendants().toList();
        launcher.destroy();
        try {
            if (!launcher.waitFor(60, TimeUnit.SECONDS)) {
                launcher.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        components.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
