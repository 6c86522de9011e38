package io.kplane.kubelet;

import io.kplane.api.util.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * The real {@code /usr/bin/kubectl} for the kubelet's interactive commands: on a pseudo-terminal of a
 * given size (util-linux {@code script}, as a user's terminal, so kubectl switches it to raw mode and
 * sends its size on the resize channel), or plainly with a result. Each instance has its own HOME (a
 * fresh discovery cache) and a kubeconfig for one server.
 */
final class TerminalKubectl {
    static final Path BINARY = Path.of("/usr/bin/kubectl");

    record Result(int code, String out) {}

    private final Path home;

    TerminalKubectl(String server) throws IOException {
        home = Files.createTempDirectory("kubectl-home");
        Files.writeString(
                home.resolve("kubeconfig"),
                """
                apiVersion: v1
                kind: Config
                clusters:
                - {name: kplane, cluster: {server: %s}}
                users:
                - {name: kplane, user: {}}
                contexts:
                - {name: kplane, context: {cluster: kplane, user: kplane, namespace: default}}
                current-context: kplane
                """
                        .formatted(server));
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(), "--kubeconfig", home.resolve("kubeconfig").toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Runs kubectl to its end (stdout and stderr together). */
    Result run(String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command(args)).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("KUBECONFIG");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish: " + out);
        }
        return new Result(p.exitValue(), out);
    }

    /** kubectl on a terminal of {@code cols}x{@code rows}: type into it, read what the terminal shows. */
    Session onTerminal(int cols, int rows, String... args) throws IOException {
        StringBuilder line = new StringBuilder("stty cols " + cols + " rows " + rows + "; exec ");
        for (String a : command(args)) {
            line.append('\'').append(a.replace("'", "'\\''")).append("' ");
        }
        ProcessBuilder pb =
                new ProcessBuilder("script", "-qec", line.toString(), "/dev/null").redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("TERM", "xterm");
        pb.environment().remove("KUBECONFIG");
        return new Session(pb.start());
    }

    /** One kubectl on its terminal. */
    static final class Session implements AutoCloseable {
        private final Process process;
        private final StringBuffer screen = new StringBuffer();

        Session(Process process) {
            this.process = process;
            InputStream in = process.getInputStream();
            DaemonThreads.newThread("kubectl-terminal", () -> {
                        byte[] chunk = new byte[8192];
                        try (in) {
                            int n;
                            while ((n = in.read(chunk)) >= 0) {
                                screen.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
                            }
                        } catch (IOException e) {
                            // kubectl ended
                        }
                    })
                    .start();
        }

        /** Keys typed on the terminal. */
        void type(String keys) throws IOException {
            OutputStream keyboard = process.getOutputStream();
            keyboard.write(keys.getBytes(StandardCharsets.UTF_8));
            keyboard.flush();
        }

        String screen() {
            return screen.toString();
        }

        /** Waits (generously: the machine may be loaded) until the terminal shows what {@code condition} wants. */
        String await(String description, Predicate<String> condition) {
            Awaitility.await()
                    .alias(description + "; terminal so far: " + screen)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> condition.test(screen.toString()));
            return screen.toString();
        }

        /** kubectl's exit code once it has ended by itself. */
        int awaitExit() throws InterruptedException {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("kubectl did not end; terminal: " + screen);
            }
            return process.exitValue();
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
