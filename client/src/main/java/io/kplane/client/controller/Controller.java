package io.kplane.client.controller;

import io.kplane.api.util.DaemonThreads;
import io.kplane.client.KubeClientException;
import io.kplane.client.lens.ControllerLens;
import io.kplane.client.lens.Lens;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs N workers over a {@link RateLimitingQueue} of keys: each takes a key, calls the
 * {@link Reconciler}, and then forgets the key (success), re-adds it rate-limited (exception or
 * {@link Result#requeue()}), or re-adds it after a delay ({@link Result#requeueAfter}). {@code done}
 * is always called, so a key is never processed by two workers at once.
 */
public final class Controller {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String name;
    private final int workers;
    private final RateLimitingQueue<String> queue;
    private final Reconciler reconciler;
    private final List<Thread> threads = new ArrayList<>();
    private final ControllerLens lens;

    private Controller(Builder builder) {
        this.name = builder.name;
        this.workers = builder.workers;
        this.queue = builder.queue;
        this.reconciler = builder.reconciler;
        this.lens = builder.lens;
    }

    public static Builder builder() {
        return new Builder();
    }

    public String name() {
        return name;
    }

    public RateLimitingQueue<String> queue() {
        return queue;
    }

    /** Starts the worker threads and returns. */
    public synchronized void start() {
        if (!threads.isEmpty()) {
            throw new IllegalStateException("controller " + name + " already started");
        }
        for (int i = 0; i < workers; i++) {
            Thread thread = DaemonThreads.newThread(name + "-worker-" + i, this::runWorker);
            threads.add(thread);
            thread.start();
        }
        log.info("controller {} started with {} workers", name, workers);
    }

    /** Shuts the queue down, lets in-flight keys finish, and waits up to {@code timeout} for the workers. */
    public void stop(Duration timeout) throws InterruptedException {
        queue.shutDown();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Thread> running;
        synchronized (this) {
            running = List.copyOf(threads);
        }
        for (Thread thread : running) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        log.info("controller {} stopped", name);
    }

    private void runWorker() {
        try {
            while (processNextItem()) {
                // keep going until the queue is shut down
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Processes one key; false once the queue is shut down and empty. Visible for single-step tests. */
    boolean processNextItem() throws InterruptedException {
        lens.awaitTurn();
        Optional<String> next;
        try {
            next = queue.get();
        } catch (InterruptedException | RuntimeException e) {
            lens.releaseTurn();
            throw e;
        }
        if (next.isEmpty()) {
            lens.releaseTurn();
            return false;
        }
        String key = next.get();
        try {
            lens.gotItem(key);
        } catch (InterruptedException e) {
            queue.done(key); // stopped while held by a pause
            throw e;
        }
        // the requeue below happens inside the sync's scope, so the lens records it as a REQUEUE trigger
        SyncScope scope = lens.beginSync(key);
        Duration requeueAfter = null;
        Throwable failure = null;
        // A reconciler computes its requeue delay from the time it read during the sync, so the delay
        // runs from the sync's start, not from its end: measured from the end, a cluster-clock jump
        // that lands during the sync (e.g. `clock set` right after a create) would push the requeue
        // back by the whole jump — a CronJob synced at 00:59:00 and requeued for 01:00:00 would wait
        // a full minute after the clock was set to 00:59:58. From the start it is at worst early by
        // the sync's duration, and the next sync requeues for what is left.
        Instant syncStart = queue.now();
        try {
            Result result = reconciler.reconcile(key);
            if (result.requeueAfterDelay() != null) {
                queue.forget(key);
                requeueAfter = result.requeueAfterDelay();
                queue.addAt(key, syncStart.plus(requeueAfter));
            } else if (result.isRequeue()) {
                queue.addRateLimited(key);
            } else {
                queue.forget(key);
            }
        } catch (InterruptedException e) {
            failure = e;
            queue.addRateLimited(key);
            throw e;
        } catch (KubeClientException e) {
            // API errors (conflicts, not found, server away) are routine: one line, no stack trace
            failure = e;
            log.warn(
                    "controller {} failed to sync {} (retry {}): {}",
                    name,
                    key,
                    queue.numRequeues(key) + 1,
                    e.toString());
            queue.addRateLimited(key);
        } catch (Exception | LinkageError | AssertionError e) {
            failure = e;
            log.warn(
                    "controller {} failed to sync {} (retry {}): {}",
                    name,
                    key,
                    queue.numRequeues(key) + 1,
                    e.toString(),
                    e);
            queue.addRateLimited(key);
        } finally {
            scope.finish(requeueAfter, failure);
            queue.done(key);
        }
        return true;
    }

    public static final class Builder {
        private String name = "controller";
        private int workers = 1;
        private RateLimitingQueue<String> queue;
        private Reconciler reconciler;
        private ControllerLens lens = ControllerLens.NOOP;

        /** Reports to {@code lens} as controller {@code lensName} (pause/step, one sync record per sync). */
        public Builder lens(Lens lens, String lensName, String queueName) {
            this.lens = lens.controller(lensName, queueName);
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be >= 1");
            }
            this.workers = workers;
            return this;
        }

        public Builder queue(RateLimitingQueue<String> queue) {
            this.queue = queue;
            return this;
        }

        public Builder reconciler(Reconciler reconciler) {
            this.reconciler = reconciler;
            return this;
        }

        public Controller build() {
            if (reconciler == null) {
                throw new IllegalStateException("a controller needs a reconciler");
            }
            if (queue == null) {
                throw new IllegalStateException("a controller needs a queue");
            }
            return new Controller(this);
        }
    }
}
