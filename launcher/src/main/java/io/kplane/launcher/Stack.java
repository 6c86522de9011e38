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
 * A running local stack: starts components in dependency order, waits for each wave to be healthy,
 * records the state file, shows live status, and stops everything in reverse order.
 */
final class Stack {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final Duration HEALTH_POLL = Duration.ofMillis(25);
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
        for (List<SupervisedProcess> wave : waves()) {
            wave.forEach(SupervisedProcess::start);
            awaitHealthy(wave);
        }
        writeState(true);
    }

    /** Groups components so that each starts only after what it depends on is healthy. */
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

    private void awaitHealthy(List<SupervisedProcess> wave) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        long lastPids = -1;
        long lastRender = 0;
        while (true) {
            if (stopping) {
                throw new LauncherException("stopped while starting");
            }
            wave.forEach(SupervisedProcess::probe);
            boolean allHealthy = wave.stream().allMatch(SupervisedProcess::healthy);
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
                List<String> sick = wave.stream()
                        .filter(p -> !p.healthy())
                        .map(p -> p.spec().name())
                        .toList();
                throw new LauncherException("not healthy after " + START_TIMEOUT.toMinutes() + " minutes: " + sick
                        + " (see " + options.logsDir() + ")");
            }
            // Polling a health endpoint: the condition we wait for lives in another process. A probe of a
            // loopback port costs well under a millisecond, so a short interval ends the wait at once.
            Thread.sleep(HEALTH_POLL.toMillis());
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
