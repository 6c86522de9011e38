package io.kplane.kubectl;

import io.kplane.api.util.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** {@code /usr/bin/kubectl} as a process, with its own HOME and a kubeconfig pointing at one server. */
final class RealKubectl {
    static final Path BINARY = Path.of("/usr/bin/kubectl");

    record Result(int code, String out, String err) {}

    private final Path home;
    private final Path kubeconfig;

    RealKubectl(String server) throws IOException {
        home = Files.createTempDirectory("kubectl-home");
        kubeconfig = home.resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kplane
                  cluster: {server: %s}
                users:
                - name: kplane
                  user: {}
                contexts:
                - name: kplane
                  context: {cluster: kplane, user: kplane, namespace: default}
                current-context: kplane
                """
                        .formatted(server));
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    Result run(String... args) {
        return runWithStdin(null, args);
    }

    Result runWithStdin(String stdin, String... args) {
        try {
            Process p = start(args);
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            CompletableFuture<String> out = readAll(p.getInputStream());
            CompletableFuture<String> err = readAll(p.getErrorStream());
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
            }
            return new Result(p.exitValue(), out.get(), err.get());
        } catch (IOException | InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    /** Starts kubectl without waiting for it (watches, log follows); the caller reads and ends it. */
    Process start(String... args) throws IOException {
        return start(java.util.Map.of(), args);
    }

    /** The same with extra environment variables (e.g. kubectl's feature switches). */
    Process start(java.util.Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("KUBECONFIG");
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * Starts kubectl on a pseudo-terminal of {@code cols}x{@code rows} (util-linux {@code script}, as a
     * user's terminal: kubectl then puts it in raw mode and sends its size), fed from the returned
     * process's stdin; stdout carries the terminal's output.
     */
    Process startOnTerminal(int cols, int rows, String... args) throws IOException {
        StringBuilder line = new StringBuilder("stty cols " + cols + " rows " + rows + "; exec ");
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        for (String a : command) {
            line.append('\'').append(a.replace("'", "'\\''")).append("' ");
        }
        ProcessBuilder pb =
                new ProcessBuilder("script", "-qec", line.toString(), "/dev/null").redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("TERM", "xterm");
        pb.environment().remove("KUBECONFIG");
        return pb.start();
    }

    static CompletableFuture<String> readAll(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = DaemonThreads.newThread("kubectl-output", () -> {
            try {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(e);
            }
        });
        t.start();
        return f;
    }
}
