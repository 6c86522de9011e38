package io.kplane.kubelet.runtime;

import io.kplane.api.util.DaemonThreads;
import io.kplane.client.time.Clock;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a container's {@code command + args} as a host process. The image is recorded, not pulled.
 *
 * <p>Each container is started through {@code setsid}, so it leads its own session and process group:
 * stop signals go to the whole group ({@code kill -TERM -- -pgid}) and reach children such as the
 * commands a {@code sh -c} script runs. When the main process exits the rest of its group is killed,
 * as a container's processes die with its PID 1. Its environment is exactly the container's (plus
 * {@code PATH} and {@code HOME} of the host unless the pod sets them, and {@code HOSTNAME} = pod name).
 */
public final class ProcessRuntime implements ContainerRuntime {
    private static final Logger log = LoggerFactory.getLogger(ProcessRuntime.class);
    private static final String HOST_PATH = Optional.ofNullable(System.getenv("PATH"))
            .orElse("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");

    private final Clock clock;
    /** Waits for output copiers after an exit; not the common pool, whose single thread would serialise exits. */
    private final ExecutorService reaper = Executors.newCachedThreadPool(DaemonThreads.named("process-reaper"));

    private final MountNamespace namespaces;

    /**
     * The attempts this runtime started, by pod UID, container and attempt: a pod worker that lost its
     * handle (the engine call failed after the process was spawned) re-attaches to the live process
     * instead of presuming it dead and running the container a second time. Gone with the JVM: after a
     * kubelet restart host processes cannot be re-attached (see {@link #reattach}).
     */
    private final java.util.Map<String, HostProcess> started = new java.util.concurrent.ConcurrentHashMap<>();

    public ProcessRuntime(Clock clock) {
        this.clock = clock;
        this.namespaces = probeMountNamespace();
    }

    /** Says at start whether pod volumes can be mounted at their paths on this machine. */
    private static MountNamespace probeMountNamespace() {
        Path probe;
        try {
            probe = Files.createTempDirectory("kplane-mount-probe");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        MountNamespace ns = MountNamespace.probe(probe);
        try {
            Files.deleteIfExists(probe);
        } catch (IOException ignored) {
            // an empty directory in /tmp
        }
        if (ns.available()) {
            log.info("process runtime: pod volumes are mounted in a private mount namespace per container");
        } else {
            log.warn(
                    "process runtime: pods with volume mounts CANNOT run on this machine (no private mount "
                            + "namespace: {}); they will wait with CreateContainerConfigError. Run as root, allow user "
                            + "namespaces, or use --runtime docker",
                    ns.unavailableReason());
        }
        return ns;
    }

    /** Whether pod volumes can be mounted (a private mount namespace works here). */
    public boolean canMountVolumes() {
        return namespaces.available();
    }

    @Override
    public String type() {
        return "process";
    }

    @Override
    public String version() {
        return "process://" + System.getProperty("os.name").toLowerCase(Locale.ROOT) + "-"
                + System.getProperty("os.version");
    }

    @Override
    public void ensureImage(ContainerLaunch launch) {
        // host processes need no image
    }

    @Override
    public RunningContainer start(ContainerLaunch launch) throws ContainerStartException {
        List<String> command = commandLine(launch);
        if (command.isEmpty()) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "the process runtime runs the container's command and cannot run the entrypoint of image \""
                            + launch.image() + "\": set command (or args) for container \"" + launch.containerName()
                            + "\"");
        }
        List<Mount> mounts = launch.mounts();
        if (!mounts.isEmpty() && !namespaces.available()) {
            throw ContainerStartException.waiting(
                    ContainerStartException.CREATE_CONFIG_ERROR,
                    "the process runtime cannot mount volumes on this node (no private mount namespace: "
                            + namespaces.unavailableReason() + "); volume \""
                            + mounts.get(0).containerPath()
                            + "\" would be missing: run the kubelet as root or with user namespaces, or use the "
                            + "docker runtime");
        }
        String path = launch.env().getOrDefault("PATH", HOST_PATH);
        String executable = command.get(0);
        if (resolve(executable, path, mounts) == null) {
            throw ContainerStartException.startError(
                    "exec: \"" + executable + "\": executable file not found in $PATH");
        }
        Path workDir = launch.workingDir() == null || launch.workingDir().isEmpty()
                ? launch.scratchDir()
                : Path.of(launch.workingDir());
        if (!Files.isDirectory(MountNamespace.hostPathOf(workDir.toString(), mounts))) {
            throw ContainerStartException.startError(
                    "chdir to cwd (\"" + workDir + "\") set in config.json failed: " + "no such file or directory");
        }
        List<String> argv = new ArrayList<>();
        if (mounts.isEmpty()) {
            argv.addAll(command);
        } else {
            Path stage = launch.scratchDir().resolveSibling("rootfs").resolve(launch.containerName());
            try {
                Files.createDirectories(stage);
            } catch (IOException e) {
                throw ContainerStartException.waiting(ContainerStartException.CREATE_ERROR, e.getMessage());
            }
            argv.addAll(namespaces.wrap(mounts, stage, workDir.toString(), command));
            workDir = launch.scratchDir(); // the real chdir happens inside the namespace
        }
        if (launch.stdio().tty()) {
            argv = ContainerTerminal.onTerminal(argv); // script on the host; the namespace is entered under it
        }
        argv = new ArrayList<>(argv);
        argv.add(0, "setsid");
        ProcessBuilder pb = new ProcessBuilder(argv).directory(workDir.toFile());
        if (!launch.stdio().stdin() && !launch.stdio().tty()) {
            // stdin: true keeps a pipe open for kubectl attach -i; otherwise the container reads an empty stdin.
            // A terminal without stdin keeps the pipe too, never written: its command waits for input that never
            // comes, as on a runtime's tty, instead of script turning an empty stdin into an EOF (^D) that ends it
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        pb.environment().clear();
        pb.environment().putAll(environment(launch));
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw ContainerStartException.startError(e.getMessage());
        }
        Instant startedAt = clock.now();
        log.info("started {} as pid {}", launch.describe(), process.pid());
        HostProcess container = new HostProcess(launch, process, startedAt);
        started.put(attemptKey(launch), container);
        return container;
    }

    /**
     * {@code command + args}; with no {@code command}, {@code args} alone, as an engine runs an image
     * without an ENTRYPOINT (busybox's, which {@code kubectl run demo --image=busybox -- sh} relies on): the
     * process runtime has no image, so it treats every image as one without an entrypoint. Empty: nothing
     * to run.
     */
    private static List<String> commandLine(ContainerLaunch launch) {
        List<String> command = new ArrayList<>();
        if (launch.command() != null) {
            command.addAll(launch.command());
        }
        if (launch.args() != null) {
            command.addAll(launch.args());
        }
        return command;
    }

    /** The container's environment: the host PATH/HOME unless set, HOSTNAME = pod name, cluster time. */
    private java.util.Map<String, String> environment(ContainerLaunch launch) {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("PATH", HOST_PATH);
        Optional.ofNullable(System.getenv("HOME")).ifPresent(home -> env.put("HOME", home));
        env.put("HOSTNAME", launch.podName());
        env.putAll(launch.env());
        if (launch.stdio().tty()) {
            ContainerTerminal.addTerm(env);
        }
        env.putAll(io.kplane.kubelet.clock.PodClock.processEnvironment(clock)); // cluster time
        return env;
    }

    /**
     * Runs a command next to a container this runtime started and that still runs: same environment and
     * working directory, and its mount namespace when it has volume mounts.
     */
    @Override
    public ExecSession exec(String containerId, ExecSpec spec) throws ExecNotSupportedException {
        HostProcess container = started.values().stream()
                .filter(c -> c.containerId().equals(containerId) && c.process.isAlive())
                .findFirst()
                .orElseThrow(() -> new ExecNotSupportedException("container is not running"));
        ContainerLaunch launch = container.launch;
        if (spec.command().isEmpty()) {
            boolean stdin = spec.stdin() && launch.stdio().stdin();
            return new ProcessAttach(
                    container.stdout,
                    container.stderr,
                    stdin ? container.process.getOutputStream() : null,
                    launch.stdio().stdinOnce(),
                    container.exited,
                    container.terminal);
        }
        String workDir = launch.workingDir() == null || launch.workingDir().isEmpty()
                ? launch.scratchDir().toString()
                : launch.workingDir();
        List<String> enter = List.of();
        if (!launch.mounts().isEmpty()) {
            enter = namespaces.enter(container.process.pid(), workDir);
        }
        return ProcessExec.start(spec, environment(launch), workDir, Path.of(workDir), enter);
    }

    /** Finds the executable as the container will see it: volume mount paths map to their node directories. */
    private static Path resolve(String executable, String path, List<Mount> mounts) {
        if (executable.contains("/")) {
            Path p = MountNamespace.hostPathOf(executable, mounts);
            return Files.isExecutable(p) ? p : null;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty()) {
                Path p = MountNamespace.hostPathOf(dir + "/" + executable, mounts);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    @Override
    public Optional<RunningContainer> reattach(ContainerLaunch launch, String containerId, Instant startedAt) {
        HostProcess ours = started.get(attemptKey(launch));
        if (ours != null && (containerId == null || containerId.equals(ours.containerId()))) {
            log.info("re-attached to {} (pid {}, started by this kubelet)", launch.describe(), ours.process.pid());
            return Optional.of(ours);
        }
        if (containerId != null && containerId.startsWith("process://")) {
            long pid = Long.parseLong(containerId.substring("process://".length()));
            ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> sameProcess(h, startedAt))
                    .ifPresent(h -> {
                        log.warn(
                                "killing process group {} left over from {}: host processes cannot be re-attached",
                                pid,
                                launch.describe());
                        signalGroup(pid, "KILL");
                    });
        }
        return Optional.empty();
    }

    /** Guards against PID reuse: the process must have started within a few seconds of the record. */
    private static boolean sameProcess(ProcessHandle h, Instant startedAt) {
        Optional<Instant> start = h.info().startInstant();
        return startedAt == null
                || start.isEmpty()
                || Duration.between(start.get(), startedAt).abs().compareTo(Duration.ofSeconds(5)) < 0;
    }

    @Override
    public void discard(String containerId, Instant startedAt) {
        if (containerId != null && containerId.startsWith("process://")) {
            long pid = Long.parseLong(containerId.substring("process://".length()));
            ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> sameProcess(h, startedAt))
                    .ifPresent(h -> signalGroup(pid, "KILL"));
            started.values().removeIf(c -> c.containerId().equals(containerId));
        }
    }

    @Override
    public void remove(String containerId) {
        // nothing is left of an exited host process but our handle on it
        started.values().removeIf(c -> c.containerId().equals(containerId));
    }

    private static String attemptKey(ContainerLaunch launch) {
        return launch.podUid() + "/" + launch.containerName() + "/" + launch.attempt();
    }

    @Override
    public void close() {
        // processes belong to pod workers, which stop them
        reaper.shutdown();
    }

    static void signalGroup(long pgid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            kill.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            log.warn("cannot signal process group {}: {}", pgid, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One host process and the two threads copying its output into the log. */
    private final class HostProcess implements RunningContainer {
        private final ContainerLaunch launch;
        private final Process process;
        private final Instant startedAt;
        private final CompletableFuture<ExitStatus> exited = new CompletableFuture<>();
        private volatile Clock.Timer killTimer;
        /** The container's output as {@code attach} sees it, from the moment of attaching. */
        private final AttachableOutput stdout = new AttachableOutput();

        private final AttachableOutput stderr = new AttachableOutput();
        /** Resizes the container's terminal ({@code tty: true}) for an attach's resize messages; else null. */
        private final PtyResizer terminal;

        HostProcess(ContainerLaunch launch, Process process, Instant startedAt) {
            this.launch = launch;
            this.process = process;
            this.startedAt = startedAt;
            this.terminal = launch.stdio().tty() ? new PtyResizer(process) : null;
            Thread out = copier(process.getInputStream(), launch.log().lineStream("stdout"), stdout, "stdout");
            Thread err = copier(process.getErrorStream(), launch.log().lineStream("stderr"), stderr, "stderr");
            process.onExit().thenRunAsync(() -> finish(out, err), reaper);
        }

        private Thread copier(InputStream in, OutputStream sink, AttachableOutput attached, String stream) {
            Thread t = DaemonThreads.newThread("log-" + launch.containerName() + "-" + stream, () -> {
                try (in;
                        OutputStream tee = attached.tee(sink)) {
                    in.transferTo(tee);
                } catch (IOException | RuntimeException e) {
                    log.debug("{} {} copy ended: {}", launch.describe(), stream, e.toString());
                } finally {
                    attached.end();
                }
            });
            t.start();
            return t;
        }

        private void finish(Thread out, Thread err) {
            int code = process.exitValue();
            // PID 1 of a container gone means its other processes go too
            signalGroup(process.pid(), "KILL");
            try {
                out.join(2000);
                err.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Clock.Timer timer = killTimer;
            if (timer != null) {
                timer.cancel();
            }
            if (terminal != null) {
                terminal.close();
            }
            Instant finishedAt = clock.now();
            log.info("{} (pid {}) exited with code {}", launch.describe(), process.pid(), code);
            exited.complete(new ExitStatus(code, finishedAt, null));
        }

        /**
         * Signals the container's process group and, on a terminal, also the session {@code script} made
         * for the command (its own process group, which the first signal does not reach).
         */
        private void signalContainer(String signal) {
            if (terminal != null) {
                process.children().forEach(child -> signalGroup(child.pid(), signal));
            }
            signalGroup(process.pid(), signal);
        }

        @Override
        public String containerId() {
            return "process://" + process.pid();
        }

        @Override
        public Instant startedAt() {
            return startedAt;
        }

        @Override
        public CompletableFuture<ExitStatus> exited() {
            return exited;
        }

        @Override
        public void stop(Duration grace) {
            if (!process.isAlive()) {
                return;
            }
            if (grace.isZero() || grace.isNegative()) {
                signalContainer("KILL");
                return;
            }
            signalContainer("TERM");
            if (killTimer == null) {
                killTimer = clock.schedule(grace, () -> {
                    if (process.isAlive()) {
                        log.info("{} still running after {}s grace: SIGKILL", launch.describe(), grace.toSeconds());
                        signalContainer("KILL");
                    }
                });
            }
        }
    }
}
