package io.kplane.apiserver.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The create benchmarks' warm-up, JMH-style: unmeasured one-second iterations for a minimum time
 * (and number of creates), and, where the server shares the benchmark's JVM, until its JIT has
 * quietened down; every five-second window printed, so a reader sees whether the server was still
 * getting faster when the measurement began. A fresh JVM's CPU per create keeps falling for tens of
 * seconds while C1 and C2 compile the request path (on two loaded cores the compiler threads were
 * still busy most of each window after 40 s); a warm-up that stopped at a count of creates stopped
 * sooner the faster the machine, and its "steady" levels measured the compiler (docs/performance.md,
 * "Create throughput: the benchmarks measured warm-up").
 */
final class CreateWarmUp {
    private static final int WINDOW_SECONDS = 5;
    /**
     * Compiler threads' CPU in a window below which the JIT counts as done with the request path
     * (5 % of one core over the window).
     */
    static final long QUIET_JIT_MILLIS = 250;

    private CreateWarmUp() {}

    /** One second of closed-loop creates; returns creates/s. */
    interface Iteration {
        double run(int index) throws Exception;
    }

    /**
     * Runs {@code iteration} (one second of creates, given its index, returning creates/s) in windows
     * of five seconds until {@code minSeconds} have passed, {@code minCreates} were answered and, if
     * {@code quietJit}, this JVM's compiler threads used less than {@link #QUIET_JIT_MILLIS} of CPU in
     * the last window (the server shares this JVM); at most {@code maxSeconds}. Prints the total and,
     * per window, the rate, this JVM's CPU per create and its compiler threads' CPU.
     */
    static void run(String label, int minSeconds, int minCreates, int maxSeconds, boolean quietJit, Iteration iteration)
            throws Exception {
        run(label, minSeconds, minCreates, maxSeconds, quietJit, null, iteration);
    }

    /** As above, each window also described by {@code probe} (the writer's batches, PostgreSQL's CPU) if given. */
    static void run(
            String label,
            int minSeconds,
            int minCreates,
            int maxSeconds,
            boolean quietJit,
            ServerProbe probe,
            Iteration iteration)
            throws Exception {
        if (minSeconds <= 0 && minCreates <= 0) {
            return;
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        StringBuilder windows = new StringBuilder();
        int seconds = 0;
        double total = 0;
        boolean done = false;
        while (!done) {
            long cpuBefore = os.getProcessCpuTime();
            long jitBefore = compilerCpuMillis();
            ServerProbe.Snapshot probeBefore = probe == null ? null : probe.snapshot();
            double windowCreates = 0;
            for (int i = 0; i < WINDOW_SECONDS; i++) {
                windowCreates += iteration.run(seconds++);
            }
            total += windowCreates;
            long jitMillis = compilerCpuMillis() - jitBefore;
            // CPU per create and JIT time, unlike the rate, hardly move with the machine's load
            windows.append(String.format(
                    "%n  %3d s: %5.0f creates/s, JVM CPU %.2f ms/create, JIT threads' CPU %5d ms",
                    seconds,
                    windowCreates / WINDOW_SECONDS,
                    (os.getProcessCpuTime() - cpuBefore) / 1e6 / Math.max(1, windowCreates),
                    jitMillis));
            if (probe != null) {
                windows.append("\n         ").append(probe.describe(probeBefore, probe.snapshot(), windowCreates));
            }
            done = seconds >= maxSeconds
                    || (seconds >= minSeconds && total >= minCreates && (!quietJit || jitMillis < QUIET_JIT_MILLIS));
        }
        System.out.printf("warm-up, not in the ratio%s: %.0f creates in %d s%s%n", label, total, seconds, windows);
    }

    /**
     * CPU time (user + system) of this JVM's C1/C2 compiler threads now alive, from /proc: unlike the
     * {@code CompilationMXBean}'s compile time, which is elapsed time and grows with the machine's
     * load while a compiler thread waits for a core. -1 where /proc is not there.
     */
    static long compilerCpuMillis() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return -1;
        }
        long ticks = 0;
        try (var threads = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) threads::iterator) {
                try {
                    if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * 10; // USER_HZ is 100 on Linux
    }
}
