package io.kplane.launcher;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./kplane up|down|status|logs}: the all-in-one launcher. */
@Command(
        name = "kplane",
        mixinStandardHelpOptions = true,
        version = "kplane 0.1.0",
        description = "Runs the kplane control plane locally, every component as its own process.",
        subcommands = {
            LauncherMain.Up.class,
            LauncherMain.Down.class,
            LauncherMain.Status.class,
            LauncherMain.Logs.class
        })
public final class LauncherMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LauncherMain());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof LauncherException || ex instanceof IOException) {
                cmd.getErr().println("error: " + ex.getMessage());
                return 1;
            }
            throw ex;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static class StateDirOption {
        @Option(
                names = "--state-dir",
                defaultValue = ".kplane",
                description = "Where the database, logs and kubeconfig live (default: ${DEFAULT-VALUE}).")
        Path stateDir;
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = "Start the stack (PostgreSQL, apiserver, controllers, kubelet-sim) and keep it running.")
    static final class Up implements Callable<Integer> {
        @CommandLine.Mixin
        StateDirOption state = new StateDirOption();

        @Option(
                names = "--bind",
                defaultValue = "127.0.0.1",
                description = "API server address (default: ${DEFAULT-VALUE}).")
        String bind;

        @Option(names = "--port", defaultValue = "6443", description = "API server port (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(
                names = "--db-url",
                description = "Use this PostgreSQL instead of the embedded one (postgresql://user:pass@host:port/db).")
        String dbUrl;

        @Option(
                names = "--db-port",
                defaultValue = "15432",
                description = "Port of the embedded PostgreSQL (default: ${DEFAULT-VALUE}).")
        int dbPort;

        @Option(
                names = "--nodes",
                defaultValue = "1",
                description = "Number of kubelet-sim nodes (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(
                names = "--runtime",
                defaultValue = "process",
                description = "Container runtime of the nodes: process or docker (default: ${DEFAULT-VALUE}).")
        String runtime;

        @Option(names = "--auth", description = "Require a bearer token (generated, written into the kubeconfig).")
        boolean auth;

        @Option(
                names = {"-d", "--detach"},
                description = "Start in the background and return once healthy.")
        boolean detach;

        @Option(names = "--demo", description = "Apply examples/ and show the Jobs running to completion.")
        boolean demo;

        @Option(
                names = "--free-ports",
                description =
                        "Give the controllers' health ports and the kubelets free ports "
                                + "instead of the fixed ones (10250, 10259, 10261-10267), to run several stacks on one machine.")
        boolean freePorts;

        @Option(
                names = "--component-arg",
                paramLabel = "NAME=ARG",
                description = "Extra argument for one component (repeatable), e.g. kubelet-sim=--crashloop-base=1s.")
        List<String> componentArgs = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (nodes < 1) {
                throw new LauncherException("--nodes must be at least 1");
            }
            if (!runtime.equals("process") && !runtime.equals("docker")) {
                throw new LauncherException("--runtime must be process or docker, not " + runtime);
            }
            java.util.Map<String, List<String>> extra = new java.util.HashMap<>();
            for (String a : componentArgs) {
                int eq = a.indexOf('=');
                if (eq <= 0 || eq == a.length() - 1) {
                    throw new LauncherException("--component-arg wants NAME=ARG, got \"" + a + "\"");
                }
                extra.computeIfAbsent(a.substring(0, eq), k -> new ArrayList<>())
                        .add(a.substring(eq + 1));
            }
            StackOptions options = StackOptions.local(state.stateDir, bind, port, dbPort, dbUrl, nodes, runtime, auth)
                    .withExtraArgs(extra)
                    .withFreePorts(freePorts);
            if (detach) {
                return Detached.start(options, reArgs());
            }
            boolean tty = System.console() != null && System.getenv("CI") == null;
            Stack stack = new Stack(options, System.out, tty);
            stack.start();
            stack.printUsage();
            if (demo) {
                new Demo(options, System.out).run(EntryPoint.home().resolve("examples"));
            }
            stack.monitor();
            return 0;
        }

        private List<String> reArgs() {
            List<String> args = new ArrayList<>(List.of(
                    "up",
                    "--state-dir",
                    state.stateDir.toString(),
                    "--bind",
                    bind,
                    "--port",
                    String.valueOf(port),
                    "--db-port",
                    String.valueOf(dbPort),
                    "--nodes",
                    String.valueOf(nodes),
                    "--runtime",
                    runtime));
            if (dbUrl != null) {
                args.addAll(List.of("--db-url", dbUrl));
            }
            if (auth) {
                args.add("--auth");
            }
            if (freePorts) {
                args.add("--free-ports");
            }
            componentArgs.forEach(a -> args.add("--component-arg=" + a));
            return args;
        }
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description = "Stop a stack started by `kplane up` (from any terminal).")
    static final class Down implements Callable<Integer> {
        @CommandLine.Mixin
        StateDirOption state = new StateDirOption();

        @Override
        public Integer call() throws Exception {
            StateFile s = StateFile.read(state.stateDir);
            if (s == null) {
                System.out.println("kplane is not running");
                return 0;
            }
            if (s.launcherAlive()) {
                ProcessHandle launcher = ProcessHandle.of(s.launcherPid()).orElseThrow();
                launcher.destroy(); // SIGTERM: the launcher's shutdown hook stops its components in order
                System.out.print("stopping kplane (launcher pid " + s.launcherPid() + ")");
                long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (launcher.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                    System.out.print(".");
                }
                System.out.println();
            }
            // The launcher was killed, or did not finish: stop whatever it left behind.
            for (StateFile.Entry e : s.components()) {
                ProcessHandle.of(e.pid()).ifPresent(p -> {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                });
            }
            StateFile.delete(state.stateDir);
            System.out.println("kplane stopped");
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Show each component's process and health.")
    static final class Status implements Callable<Integer> {
        @CommandLine.Mixin
        StateDirOption state = new StateDirOption();

        @Override
        public Integer call() throws Exception {
            StateFile s = StateFile.read(state.stateDir);
            if (s == null || !s.launcherAlive()) {
                System.out.println("kplane is not running");
                return 3;
            }
            System.out.printf("%-20s %-8s %-7s %s%n", "COMPONENT", "PID", "PORT", "STATUS");
            boolean allHealthy = true;
            for (StateFile.Entry e : s.components()) {
                boolean alive =
                        ProcessHandle.of(e.pid()).map(ProcessHandle::isAlive).orElse(false);
                boolean healthy = alive
                        && HealthProbe.healthy(new ComponentSpec(
                                e.name(),
                                e.name(),
                                List.of(),
                                java.util.Map.of(),
                                e.healthPort(),
                                e.healthPath(),
                                List.of()));
                allHealthy &= healthy;
                System.out.printf(
                        "%-20s %-8d %-7d %s%n",
                        e.name(), e.pid(), e.healthPort(), healthy ? "healthy" : alive ? "unhealthy" : "not running");
            }
            System.out.println("API server: " + s.serverUrl());
            return allHealthy ? 0 : 1;
        }
    }

    @Command(
            name = "logs",
            mixinStandardHelpOptions = true,
            description = "Print a component's log (apiserver, job-controller, kubelet-sim-1, ...).")
    static final class Logs implements Callable<Integer> {
        @CommandLine.Mixin
        StateDirOption state = new StateDirOption();

        @Parameters(index = "0", description = "Component name.")
        String component;

        @Option(
                names = {"-f", "--follow"},
                description = "Keep printing new lines.")
        boolean follow;

        @Override
        public Integer call() throws Exception {
            Path file = state.stateDir.resolve("logs").resolve(component + ".log");
            if (!Files.exists(file)) {
                throw new LauncherException("no log for component \"" + component + "\" in "
                        + file.getParent() + " (components: postgres, apiserver, "
                        + String.join(", ", StackPlan.CONTROLLER_PORTS.keySet()) + ", kubelet-sim-1, ...)");
            }
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                byte[] buf = new byte[8192];
                while (true) {
                    int n = raf.read(buf);
                    if (n > 0) {
                        System.out.write(buf, 0, n);
                        continue;
                    }
                    System.out.flush();
                    if (!follow) {
                        return 0;
                    }
                    Thread.sleep(200); // tailing a file: there is no change notification to wait on portably
                }
            }
        }
    }
}
