package io.kplane.client.informer;

import io.kplane.api.util.DaemonThreads;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that deliver informer notifications to event handlers: one pool per process, shared by
 * every {@link ProcessorListener} of every informer.
 *
 * <p>client-go runs each listener's {@code run()} in a goroutine of its own, which costs next to
 * nothing while it waits; a Java thread waiting for the next notification keeps its stack and the
 * JVM's thread structures (the garbage collector, with ~20 informers, kept 20 such threads parked for
 * its whole life). Here a listener borrows a thread only while it has notifications to deliver
 * ({@link ProcessorListener} drains its buffer with at most one task at a time, so one handler still
 * sees its notifications one at a time and in order). The pool has no bound: when every thread is
 * busy (a slow handler) a new one is made, so a slow handler still never delays another handler or the
 * informer, as with a thread per listener. A thread idle for {@link #KEEP_ALIVE_SECONDS} ends, so an
 * idle component keeps none.
 */
final class HandlerThreads {
    /** Long enough to carry a burst (the Job pipeline, a relist) on the same threads. */
    static final long KEEP_ALIVE_SECONDS = 5;

    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            task -> DaemonThreads.newThread("informer-handlers-" + COUNT.incrementAndGet(), task));

    private HandlerThreads() {}

    static Executor executor() {
        return POOL;
    }

    /** Threads of the pool right now (busy or waiting for work within their keep-alive). */
    static int poolSize() {
        return POOL.getPoolSize();
    }
}
