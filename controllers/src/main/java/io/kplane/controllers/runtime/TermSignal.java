package io.kplane.controllers.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as a request to stop, not as the JVM's abrupt exit: the handler runs the clean
 * shutdown and the process then leaves {@code main} normally, so it exits with its own code (0 after a
 * clean stop) where the JVM's default handling would report 143 (128 + SIGTERM) even when every
 * shutdown hook succeeded. A supervisor (the launcher, Docker, systemd) can then tell a clean stop
 * from a crash. Kubernetes components do the same ({@code signal.Notify} → cancel the context → return).
 */
final class TermSignal {
    private static final Logger log = LoggerFactory.getLogger(TermSignal.class);

    private TermSignal() {}

    /** Runs {@code stop} on SIGTERM and SIGINT; the JVM's shutdown hooks stay the fallback for other exits. */
    static void onTerm(Runnable stop) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> stop.run());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the signal is not available here (or reserved by the JVM, e.g. with -Xrs): the shutdown hook covers
                // it
                log.debug("cannot handle SIG{}: {}", name, e.toString());
            }
        }
    }
}
