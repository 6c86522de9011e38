package io.kplane.launcher;

import io.kplane.api.util.DaemonThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one component as a child process and keeps it running like a supervisor: when it exits
 * unexpectedly it is reported and restarted after a back-off (1 s doubling to 30 s, reset after a
 * minute of healthy running). Output goes to {@code logs/<name>.log} (appended across restarts).
 */
final class SupervisedProcess {
    enum State {
        WAITING,
        STARTING,
        RUNNING,
        BACKOFF,
        STOPPING,
        STOPPED
    }

    private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    private static final Duration STABLE_AFTER = Duration.ofMinutes(1);

    private final ComponentSpec spec;
    private final List<String> command;
    private final Path logFile;
    private final Consumer<String> report;

    private volatile State state = State.WAITING;
    private volatile Process process;
    private volatile boolean healthy;
    private volatile boolean stopRequested;
    private volatile int restarts;
    private volatile Instant startedAt;
    private volatile Integer lastExitCode;
    /** The process whose port was found to be its own listener (checked once per start of the component). */
    private volatile long listenerCheckedPid = -1;
    /** Set while the component's port answers from another process than the component's. */
    private volatile String portConflict;

    private Thread thread;

    SupervisedProcess(ComponentSpec spec, Path entryPoint, Path logsDir, Consumer<String> report) {
        this.spec = spec;
        this.command = new ArrayList<>();
        this.command.add(entryPoint.toString());
        this.command.add(spec.entryPoint());
        this.command.addAll(spec.args());
        this.logFile = logsDir.resolve(spec.name() + ".log");
        this.report = report;
    }

    ComponentSpec spec() {
        return spec;
    }

    State state() {
        return state;
    }

    boolean healthy() {
        return healthy;
    }

    int restarts() {
        return restarts;
    }

    Instant startedAt() {
        return startedAt;
    }

    Integer lastExitCode() {
        return lastExitCode;
    }

    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    Path logFile() {
        return logFile;
    }

    synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = DaemonThreads.newThread("supervise-" + spec.name(), this::superviseLoop);
        thread.start();
    }

    /**
     * Refreshes {@link #healthy()} from the component's health endpoint. The first healthy answer of each
     * start is believed only if the port's listener is this component's process ({@link ListeningSockets}):
     * a port another process holds answers too.
     */
    void probe() {
        Process p = process;
        healthy = p != null && p.isAlive() && HealthProbe.healthy(spec) && listensItself(p);
    }

    /**
     * Why the component's port answered but not from the component (another process listens on it), or
     * null: the launcher fails the start with it rather than wait for a component that cannot bind.
     */
    String portConflict() {
        return portConflict;
    }

    private boolean listensItself(Process p) {
        if (listenerCheckedPid == p.pid()) {
            return true;
        }
        if (ListeningSockets.owner(p.toHandle(), spec.healthPort()) == ListeningSockets.Owner.ANOTHER_PROCESS) {
            portConflict = "port " + spec.healthPort() + " answers, but another process than " + spec.name() + " (pid "
                    + p.pid() + ") listens on it";
            return false;
        }
        listenerCheckedPid = p.pid();
        portConflict = null;
        return true;
    }

    private void superviseLoop() {
        Duration backoff = INITIAL_BACKOFF;
        while (!stopRequested) {
            Instant began = Instant.now();
            try {
                state = State.STARTING;
                Files.createDirectories(logFile.getParent());
                ProcessBuilder builder = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
                builder.environment().putAll(spec.env());
                process = builder.start();
                startedAt = began;
                state = State.RUNNING;
                int code = process.waitFor();
                lastExitCode = code;
                healthy = false;
                if (stopRequested) {
                    break;
                }
                report.accept(spec.name() + " exited with code " + code + "; see " + logFile);
            } catch (IOException e) {
                report.accept(spec.name() + " could not be started: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (Duration.between(began, Instant.now()).compareTo(STABLE_AFTER) > 0) {
                backoff = INITIAL_BACKOFF;
            }
            state = State.BACKOFF;
            report.accept("restarting " + spec.name() + " in " + backoff.toSeconds() + "s");
            if (!sleepUnlessStopped(backoff)) {
                break;
            }
            restarts++;
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
        state = State.STOPPED;
    }

    private synchronized boolean sleepUnlessStopped(Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        try {
            while (!stopRequested) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Stops the component: SIGTERM, then SIGKILL after {@code grace}; descendants the component
     * left behind (e.g. containers of the process runtime) are killed too, so nothing is orphaned.
     */
    void stop(Duration grace) {
        synchronized (this) {
            stopRequested = true;
            notifyAll();
        }
        Process p = process;
        if (p == null) {
            state = State.STOPPED;
            return;
        }
        state = State.STOPPING;
        List<ProcessHandle> descendants = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                report.accept(spec.name() + " did not stop within " + grace.toSeconds() + "s; killing it");
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : descendants) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
        healthy = false;
        state = State.STOPPED;
    }
}
