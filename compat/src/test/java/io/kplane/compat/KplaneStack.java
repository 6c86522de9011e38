package io.kplane.compat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The stack as a user starts it ({@code ./kplane up}: every component its own OS process, from the
 * packaged jars), once per test JVM and stopped at its exit. Tests get the kubeconfig it writes.
 */
public final class KplaneStack {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static KplaneStack shared;

    private final Path stateDir;
    private final Process launcher;
    private final String server;

    private KplaneStack(Path stateDir, Process launcher, String server) {
        this.stateDir = stateDir;
        this.launcher = launcher;
        this.server = server;
    }

    /** The stack of this JVM, started on first use. */
    public static synchronized KplaneStack shared() {
        if (shared == null) {
            shared = start();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "kplane-stack-stop"));
        }
        return shared;
    }

    private static KplaneStack start() {
        try {
            Path stateDir = Files.createTempDirectory("kplane-compat");
            int apiPort = freePort();
            String server = "http://127.0.0.1:" + apiPort;
            List<String> command = new ArrayList<>(List.of(
                    javaBinary(),
                    "-jar",
                    ROOT.resolve("launcher/target/kplane-launcher.jar").toString(),
                    "up",
                    "--state-dir",
                    stateDir.toString(),
                    "--port",
                    String.valueOf(apiPort),
                    "--db-port",
                    String.valueOf(freePort()),
                    "--nodes",
                    "1",
                    "--free-ports",
                    "--component-arg=kubelet-sim=--crashloop-base=1s",
                    "--component-arg=job-controller=--pod-failure-backoff=1s"));
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(stateDir.resolve("launcher.out").toFile());
            pb.environment().put("KPLANE_HOME", ROOT.toString());
            pb.environment().put("CI", "true");
            Process launcher = pb.start();
            KplaneStack stack = new KplaneStack(stateDir, launcher, server);
            long started = System.nanoTime();
            try {
                stack.awaitReady(Duration.ofMinutes(3));
            } catch (RuntimeException e) {
                stack.stop();
                throw e;
            }
            System.out.printf(
                    "kplane stack ready in %.1f s (state in %s)%n", (System.nanoTime() - started) / 1e9, stateDir);
            return stack;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the stack: " + e.getMessage(), e);
        }
    }

    private void awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!launcher.isAlive()) {
                throw new IllegalStateException("the launcher exited:\n" + launcherOutput());
            }
            if (Files.exists(kubeconfig()) && launcherOutput().contains("kplane is up")) {
                try {
                    HttpResponse<String> r = http.send(
                            HttpRequest.newBuilder(URI.create(server + "/readyz"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            try {
                launcher.waitFor(500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("the stack was not ready within " + timeout + ":\n" + launcherOutput());
    }

    public String server() {
        return server;
    }

    public Path kubeconfig() {
        return stateDir.resolve("kubeconfig");
    }

    public String kubeconfigText() {
        try {
            return Files.readString(kubeconfig());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String launcherOutput() {
        try {
            return Files.readString(stateDir.resolve("launcher.out"));
        } catch (IOException e) {
            return "(no output)";
        }
    }

    private void stop() {
        launcher.descendants().forEach(ProcessHandle::destroy);
        launcher.destroy();
        try {
            launcher.waitFor(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        launcher.descendants().forEach(ProcessHandle::destroyForcibly);
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
