package io.kplane.apiserver.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The create benchmarks' warm-up, JMH-style: unmeasured one-second iterations for a fixed time (and
 * at least a number of creates), every iteration's rate printed, so a reader sees whether the server
 * was still getting faster when the measurement began. A fresh JVM's CPU per create keeps falling
 * for tens of seconds while the JIT (C1, then C2) compiles the request path; a warm-up that stops at a
 * count of creates stops earlier on a slow machine than on a fast one and measured the compiler
 * (docs/performance.md, "Create throughput: the benchmark measured warm-up").
 */
final class CreateWarmUp {
    private CreateWarmUp() {}

    /** One second of closed-loop creates; returns creates/s. */
    interface Iteration {
        double run(int index) throws Exception;
    }

    /**
     * Runs {@code iteration} (one second of creates, given its index, returning creates/s) until both
     * {@code minSeconds} have passed and {@code minCreates} were answered (at most 180 s), then prints
     * the total and, per five-second window, the rate, this JVM's CPU per create and its JIT's compile time.
     */
    static double run(String label, int minSeconds, int minCreates, Iteration iteration) throws Exception {
        if (minSeconds <= 0 && minCreates <= 0) {
            return 0;
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        List<Double> perSecond = new ArrayList<>();
        StringBuilder windows = new StringBuilder();
        double total = 0;
        double windowCreates = 0;
        long windowCpu = os.getProcessCpuTime();
        long windowJit = jit.getTotalCompilationTime();
        while ((perSecond.size() < minSeconds || total < minCreates) && perSecond.size() < 180) {
            double rate = iteration.run(perSecond.size());
            perSecond.add(rate);
            total += rate;
            windowCreates += rate;
            if (perSecond.size() % 5 == 0) {
                // creates/s; this JVM's CPU per create (client and server when in-process) and its JIT's
                // compile time in the window: these, unlike the rate, hardly move with the machine's load
                long cpu = os.getProcessCpuTime();
                long compiled = jit.getTotalCompilationTime();
                windows.append(String.format(
                        "%n  %3d s: %5.0f creates/s, JVM CPU %.2f ms/create, JIT %5d ms",
                        perSecond.size(),
                        windowCreates / 5,
                        (cpu - windowCpu) / 1e6 / Math.max(1, windowCreates),
                        compiled - windowJit));
                windowCreates = 0;
                windowCpu = cpu;
                windowJit = compiled;
            }
        }
        System.out.printf(
                "warm-up, not in the ratio%s: %.0f creates in %d s%s%n", label, total, perSecond.size(), windows);
        return perSecond.get(perSecond.size() - 1);
    }
}
