package io.kplane.launcher;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code kplane up --detach}: runs the launcher in the background and returns once the stack is healthy. */
final class Detached {
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    private Detached() {}

    static int start(StackOptions options, List<String> upArgs) throws IOException, InterruptedException {
        StateFile existing = StateFile.read(options.stateDir());
        if (existing != null && existing.launcherAlive()) {
            throw new LauncherException(
                    "a kplane stack is already running (launcher pid " + existing.launcherPid() + ")");
        }
        FixedPorts.requireFree(options); // here too, so that the error is this command's, before anything starts
        Files.createDirectories(options.logsDir());
        Path log = options.logsDir().resolve("launcher.log");
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid"); // its own session: a Ctrl-C in this terminal must not reach it
        }
        command.addAll(backgroundLauncher(EntryPoint.home()));
        command.addAll(upArgs);
        Process launcher = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        System.out.print("starting kplane in the background");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        int polls = 0;
        while (System.nanoTime() < deadline) {
            if (!launcher.isAlive()) {
                System.out.println();
                throw new LauncherException("the launcher exited with code " + launcher.exitValue() + "; see " + log);
            }
            StateFile state = StateFile.read(options.stateDir());
            if (state != null && state.ready() && state.launcherAlive()) {
                System.out.println();
                System.out.println("kplane is up: API server at " + state.serverUrl() + " (launcher pid "
                        + state.launcherPid() + ")");
                System.out.println("  kubeconfig: " + options.kubeconfig().toAbsolutePath());
                System.out.println("  status: ./kplane status   logs: ./kplane logs COMPONENT   stop: ./kplane down");
                return 0;
            }
            if (++polls % 10 == 0) {
                System.out.print(".");
            }
            Thread.sleep(50); // a file read: polling it often costs nothing and ends the wait at once
        }
        launcher.destroy(); // its shutdown hook stops whatever it started
        throw new LauncherException(
                "kplane did not become healthy within " + TIMEOUT.toMinutes() + " minutes; see " + log);
    }

    /**
     * The command of the long-lived background launcher: {@code kplane-component launcher}, as every
     * component and the container image start it, so it runs with the launcher's JVM options from that
     * script and its jar's class-data archive, and while that archive is stale it is a training run like
     * the components (it records the classes a running launcher loads; {@code ./kplane}'s own short JVM
     * never does). Without the script (a launcher jar run on its own) it is this JVM's command again.
     */
    static List<String> backgroundLauncher(Path home) {
        Path script = home.resolve("deploy").resolve("bin").resolve("kplane-component");
        if (Files.isExecutable(script)) {
            return List.of(script.toString(), "launcher");
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LauncherMain.class.getName()));
        return command;
    }
}
