package io.kplane.controllers.runtime;

import io.kplane.client.informer.SharedInformerFactory;
import io.kplane.client.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One term of a controller: its informers and workers, started while leading and stopped when the
 * term ends. {@link #run} may block for long (until the caches sync) on the leader-election callback
 * thread while {@link #stop} comes from the election thread at any moment; the two meet under one
 * lock, so after {@code stop()} nothing is started any more, and workers never start for a term that
 * has already ended.
 */
final class LeadingSession {
    private static final Logger log = LoggerFactory.getLogger(LeadingSession.class);

    private final ControllerComponent component;
    private final Clock clock;
    private final Object lock = new Object();
    private boolean ended;
    private SharedInformerFactory informers;
    private ControllerComponent.Running running;

    LeadingSession(ControllerComponent component, Clock clock) {
        this.component = component;
        this.clock = clock;
    }

    /**
     * Starts the informers, waits for their caches, then starts the workers. Returns false if the
     * term ended first (nothing is left running then).
     */
    boolean run(ControllerContext base) throws Exception {
        SharedInformerFactory factory;
        synchronized (lock) {
            if (ended) {
                return false;
            }
            factory = new SharedInformerFactory(base.client(), clock).withLens(base.lens());
            informers = factory;
        }
        ControllerContext ctx = new ControllerContext(
                base.client(),
                factory,
                base.clock(),
                base.events(),
                base.metrics(),
                base.workers(),
                base.identity(),
                base.lens());
        // registration may take a while; it runs outside the lock so that stop() is never kept waiting
        ControllerComponent.Running registered = component.register(ctx);
        synchronized (lock) {
            if (ended) {
                registered.close();
                return false;
            }
            running = registered;
            factory.start();
        }
        while (!factory.waitForCacheSync(Duration.ofSeconds(30))) {
            if (isEnded()) {
                return false;
            }
            log.info("{} still waiting for informer caches to sync", component.name());
        }
        synchronized (lock) {
            if (ended || Thread.currentThread().isInterrupted()) {
                return false;
            }
            running.startWorkers();
        }
        log.info("{} running with {} workers", component.name(), ctx.workers());
        return true;
    }

    /** One line per informer: when it last heard from the server (an event, a bookmark or a list). */
    java.util.List<String> informerChecks(Clock clock) {
        SharedInformerFactory f;
        synchronized (lock) {
            f = informers;
        }
        if (f == null) {
            return java.util.List.of();
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        f.lastEventTimes()
                .forEach((resource, at) -> lines.add(
                        at == null
                                ? "[+]informer " + resource + " not listed yet"
                                : "[+]informer " + resource + " last event " + at + " ("
                                        + Duration.between(at, clock.now()).toSeconds() + "s ago)"));
        return lines;
    }

    private boolean isEnded() {
        synchronized (lock) {
            return ended;
        }
    }

    /** Ends the term: stops the workers (waiting for them, as their close does) and the informers. */
    void stop() {
        synchronized (lock) {
            ended = true;
            if (running != null) {
                running.close();
                running = null;
            }
            if (informers != null) {
                informers.shutdown();
                informers = null;
            }
        }
    }
}
