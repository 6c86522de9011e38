package io.kplane.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A running local stack: starts the API server (and its PostgreSQL) first and every other component as
 * soon as the API server's JVM is up ({@link StartStages}), waits until all are healthy, records the
 * state file, shows live status, and stops everything in reverse dependency order.
 *
 * <p>Why not in waves of healthy dependencies: each component waits for what it needs by itself and quietly (the API server answers
 * 503 until its PostgreSQL accepts, controllers serve {@code /healthz} as standbys and campaign until the
 * API server answers, a kubelet retries its registration with a short back-off and is healthy only once
 * registered), so a wave order only added each JVM's start-up time to the previous wave's. {@link
 * ComponentSpec#dependsOn()} still orders the stop: clients before the API server, the API server before
 * its database.
 */
final class Stack {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** Probes of the components that are not healthy yet, while starting (see {@link StartProbeSchedule}). */
    private static final StartProbeSchedule START_PROBES = StartProbeSchedule.standard();

    private static final Duration RENDER_EVERY = Duration.ofMillis(250);

    private final StackOptions options;
    private final StatusView view;
    private final Map<String, SupervisedProcess> processes = new LinkedHashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    Stack(StackOptions options, PrintStream out, boolean tty) {
        this.options = options;
        this.view = new StatusView(out, tty);
    }

    /** Starts everything; returns once all components are healthy. */
    void start() throws IOException, InterruptedException {
        StateFile existing = StateFile.read(options.stateDir());
        if (existing != null && existing.launcherAlive()) {
            throw new LauncherException("a kplane stack is already running (launcher pid " + existing.launcherPid()
                    + "); stop it with ./kplane down");
        }
        FixedPorts.requireFree(options);
        Files.createDirectories(options.logsDir());
        String token = null;
        if (options.auth()) {
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            token = HexFormat.of().formatHex(bytes);
            Files.writeString(options.tokenFile(), token + ",admin,admin,\"system:masters\"\n");
        }
        Kubeconfig.write(options.kubeconfig(), options.serverUrl(), token);

        Path entryPoint = EntryPoint.script(EntryPoint.home());
        for (ComponentSpec spec : StackPlan.plan(options)) {
            processes.put(spec.name(), new SupervisedProcess(spec, entryPoint, options.logsDir(), view::message));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "kplane-shutdown"));

        writeState(false);
        List<SupervisedProcess> all = List.copyOf(processes.values());
        StartStages stages =
                StartStages.of(all.stream().map(SupervisedProcess::spec).toList());
        stages.first().forEach(c -> processes.get(c.name()).start());
        awaitHealthy(all, stages);
        writeState(true);
    }

    /**
     * Whether the components after the API server may start ({@link StartStages}): its port accepts (its
     * JVM reached main and bound it), or its process exited (a failed start is shown with everything else
     * started, as before).
     */
    private boolean gateOpen(ComponentSpec gate) {
        SupervisedProcess api = processes.get(gate.name());
        return api.healthy()
                || api.restarts() > 0
                || api.lastExitCode() != null
                || (api.pid() > 0 && HealthProbe.accepts(gate));
    }

    /** Groups components by dependency: each wave only depends on earlier ones (the stop runs them backwards). */
    private List<List<SupervisedProcess>> waves() {
        List<List<SupervisedProcess>> waves = new ArrayList<>();
        List<String> started = new ArrayList<>();
        List<SupervisedProcess> remaining = new ArrayList<>(processes.values());
        while (!remaining.isEmpty()) {
            List<SupervisedProcess> wave = remaining.stream()
                    .filter(p -> started.containsAll(p.spec().dependsOn()))
                    .toList();
            if (wave.isEmpty()) {
                throw new IllegalStateException("dependency cycle among " + remaining);
            }
            waves.add(wave);
            wave.forEach(p -> started.add(p.spec().name()));
            remaining.removeAll(wave);
        }
        return waves;
    }

    private void awaitHealthy(List<SupervisedProcess> starting, StartStages stages)
            throws InterruptedException, IOException {
        boolean restStarted = stages.then().isEmpty();
        long began = System.nanoTime();
        long deadline = began + START_TIMEOUT.toNanos();
        long lastPids = -1;
        long lastRender = 0;
        while (true) {
            if (stopping) {
                throw new LauncherException("stopped while starting");
            }
            // only the ones not healthy yet: a component that crashes after its first 200 is noticed by
            // its supervisor (the process exits) and probed again from then on
            starting.stream().filter(p -> !p.healthy()).forEach(SupervisedProcess::probe);
            if (!restStarted && gateOpen(stages.gate())) {
                stages.then().forEach(c -> processes.get(c.name()).start());
                restStarted = true;
            }
            for (SupervisedProcess p : starting) {
                String conflict = p.portConflict();
                if (conflict != null) {
                    throw new LauncherException(conflict + ": stop it or choose another port");
                }
            }
            boolean allHealthy = starting.stream().allMatch(SupervisedProcess::healthy);
            long pids = processes.values().stream()
                    .mapToLong(SupervisedProcess::pid)
                    .sum();
            if (allHealthy || pids != lastPids || System.nanoTime() - lastRender > RENDER_EVERY.toNanos()) {
                writeState(false); // pids change while components start and restart
                view.render(List.copyOf(processes.values()));
                lastPids = pids;
                lastRender = System.nanoTime();
            }
            if (allHealthy) {
                return;
            }
            if (System.nanoTime() > deadline) {
                List<String> sick = starting.stream()
                        .filter(p -> !p.healthy())
                        .map(p -> p.spec().name())
                        .toList();
                throw new LauncherException("not healthy after " + START_TIMEOUT.toMinutes() + " minutes: " + sick
                        + " (see " + options.logsDir() + ")");
            }
            // Polling a health endpoint: the condition we wait for lives in another process.
            Thread.sleep(START_PROBES
                    .delayAfter(Duration.ofNanos(System.nanoTime() - began))
                    .toMillis());
        }
    }

    private void writeState(boolean ready) throws IOException {
        List<StateFile.Entry> entries = processes.values().stream()
                .map(p -> new StateFile.Entry(
                        p.spec().name(),
                        p.pid(),
                        p.spec().healthPort(),
                        p.spec().healthPath(),
                        p.logFile().toString()))
                .toList();
        new StateFile(ProcessHandle.current().pid(), options.serverUrl(), ready, entries).write(options.stateDir());
    }

    void printUsage() {
        Path kubeconfig = options.kubeconfig().toAbsolutePath();
        view.message(
                """

                kplane is up: API server at %s
                  ./kubectl-lite apply -f examples/pi-job.yaml
                  ./kubectl-lite get jobs
                  KUBECONFIG=%s kubectl get jobs
                Logs: %s   Stop: Ctrl-C or ./kplane down
                """
                        .formatted(
                                options.serverUrl(),
                                kubeconfig,
                                options.logsDir().toAbsolutePath()));
    }

    /** Shows live status until the stack is stopped. */
    void monitor() throws InterruptedException, IOException {
        long lastPids = 0;
        while (!stopping) {
            processes.values().forEach(SupervisedProcess::probe);
            view.render(List.copyOf(processes.values()));
            long pids = processes.values().stream()
                    .mapToLong(SupervisedProcess::pid)
                    .sum();
            if (pids != lastPids) {
                writeState(true); // a restarted component has a new pid
                lastPids = pids;
            }
            Thread.sleep(1000);
        }
        stopped.await();
    }

    List<SupervisedProcess> processes() {
        return List.copyOf(processes.values());
    }

    /** Stops components in reverse start order: kubelets and controllers, then the API server, then PostgreSQL. */
    void stop() {
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        try {
            List<List<SupervisedProcess>> waves = waves();
            for (int i = waves.size() - 1; i >= 0; i--) {
                List<Thread> stoppers = new ArrayList<>();
                for (SupervisedProcess p : waves.get(i)) {
                    Thread t = new Thread(
                            () -> p.stop(STOP_GRACE), "stop-" + p.spec().name());
                    t.start();
                    stoppers.add(t);
                }
                for (Thread t : stoppers) {
                    t.join();
                }
            }
            StateFile.delete(options.stateDir());
            view.message("kplane stopped");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped.countDown();
        }
    }
}
