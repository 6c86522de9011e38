package io.kplane.api.util;

import java.util.concurrent.ThreadFactory;

/**
 * Daemon threads with a name, for every executor and background loop in kplane: a component's process
 * ends when its main thread does (after its shutdown hook), never because a helper thread is still
 * running, and a thread dump says whose thread is whose.
 */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** A factory for executors: every thread it makes is a daemon called {@code name}. */
    public static ThreadFactory named(String name) {
        return task -> newThread(name, task);
    }

    /** An unstarted daemon thread called {@code name} that runs {@code task}. */
    public static Thread newThread(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
