package io.kplane.controllers.testing;

import io.kplane.api.util.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A controller's main class in a JVM of its own, started from the test class path as the launcher
 * deploys it: for the tests that kill, terminate or cut off a real controller process. Its output
 * (stdout and stderr) is kept line by line ({@link #lines()}), or written to a file for a post-mortem
 * ({@link #startLoggingTo}). {@link #close()} stops it the way the launcher does: SIGTERM, then SIGKILL
 * if it has not exited after 20 s.
 */
public final class ControllerJvm implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ControllerJvm(Process process) {
        this.process = process;
    }

    /** {@code java <jvmOptions> -cp <test class path> <main> <args>}, its output read into {@link #lines()}. */
    public static ControllerJvm start(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        ControllerJvm jvm = new ControllerJvm(new ProcessBuilder(command(jvmOptions, main, args))
                .redirectErrorStream(true)
                .start());
        DaemonThreads.newThread("controller-output", jvm::readOutput).start();
        return jvm;
    }

    /** The same with its output in {@code log} (its directory created); {@link #lines()} stays empty. */
    public static ControllerJvm startLoggingTo(Path log, List<String> jvmOptions, Class<?> main, String... args)
            throws IOException {
        Path dir = log.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        return new ControllerJvm(new ProcessBuilder(command(jvmOptions, main, args))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start());
    }

    private static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        // surefire may put the test class path in a manifest-only jar: its own property names it in full
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    private void readOutput() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    public Process process() {
        return process;
    }

    /** Every line it printed so far. */
    public List<String> lines() {
        return lines;
    }

    public boolean printed(String text) {
        return lines.stream().anyMatch(l -> l.contains(text));
    }

    /**
     * SIGTERM, as the launcher, Docker or systemd send it; through the handle, because
     * {@code Process.destroy()} would also close our end of its output, losing what it prints while it
     * shuts down.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    /** SIGKILL: no shutdown hook runs, whatever was in flight is lost. Returns once it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        terminate();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
