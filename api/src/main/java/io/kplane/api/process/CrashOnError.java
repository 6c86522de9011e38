package io.kplane.api.process;

import java.io.PrintStream;
import java.util.function.IntConsumer;

/**
 * A component process ends when one of its threads dies of an {@link Error}, so its supervisor (the
 * launcher, compose, a container runtime) starts it again instead of leaving it half alive.
 *
 * <p>Why: a thread that dies leaves the rest of the process running and its {@code /healthz} answering
 * 200. A kubelet whose pod-informer thread died of a {@code NoClassDefFoundError} (its jar had been
 * rewritten under it) kept its Node Ready while every pod bound to it stayed {@code Pending} and its log
 * endpoint closed connections (docs/launcher.md, "Rebuilding under a running stack"). Kubernetes'
 * components do the same on a panic: {@code utilruntime.HandleCrash} logs it and re-panics, the Go runtime
 * exits with status 2 and the kubelet or systemd restarts the process; so this exits with 2 as well.
 *
 * <p>Only {@link Error}s: an exception that escapes a thread is a bug in that thread's code and is printed
 * as the JVM always did (or handed to the handler that was installed before), but an {@code Error}
 * (linkage, out of memory, stack overflow) says the process itself can no longer be trusted. The report
 * goes straight to {@code System.err} rather than through the logging library, which may be what failed
 * to load, and the process halts without running shutdown hooks, which could block on the broken state.
 */
public final class CrashOnError implements Thread.UncaughtExceptionHandler {
    /** The exit status of a Go program that panics, which is what a Kubernetes component exits with. */
    public static final int EXIT_STATUS = 2;

    private final String component;
    private final Thread.UncaughtExceptionHandler previous;
    private final PrintStream err;
    private final IntConsumer halt;

    CrashOnError(String component, Thread.UncaughtExceptionHandler previous, PrintStream err, IntConsumer halt) {
        this.component = component;
        this.previous = previous;
        this.err = err;
        this.halt = halt;
    }

    /** Installs the handler as the JVM's default; call it first thing in a component's {@code main}. */
    public static void install(String component) {
        Thread.setDefaultUncaughtExceptionHandler(new CrashOnError(
                component, Thread.getDefaultUncaughtExceptionHandler(), System.err, status -> Runtime.getRuntime()
                        .halt(status)));
    }

    @Override
    public void uncaughtException(Thread thread, Throwable failure) {
        if (failure instanceof Error) {
            try {
                err.println(component + ": thread \"" + thread.getName() + "\" died of " + failure
                        + "; exiting (status " + EXIT_STATUS + ") so that the process is started again");
                failure.printStackTrace(err);
                err.flush();
            } finally {
                halt.accept(EXIT_STATUS);
            }
            return;
        }
        if (previous != null) {
            previous.uncaughtException(thread, failure);
        } else {
            err.print("Exception in thread \"" + thread.getName() + "\" ");
            failure.printStackTrace(err);
        }
    }
}
