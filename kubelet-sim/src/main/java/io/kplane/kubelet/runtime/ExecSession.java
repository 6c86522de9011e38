package io.kplane.kubelet.runtime;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/**
 * A command running in a container (or an attach to its main process), as the streaming server
 * sees it: three byte streams, an exit code and a terminal size. Streams that were not asked for
 * are empty (stdin discards, stdout/stderr end at once).
 */
public interface ExecSession {
    OutputStream stdin();

    InputStream stdout();

    /** Empty with a tty (the terminal carries both outputs). */
    InputStream stderr();

    /**
     * The exit code once the command has ended and its output has been read to the end; for an
     * attach, completes when the caller may stop (the container ended). Completes exceptionally when
     * the command could not be started.
     */
    CompletableFuture<Integer> exitCode();

    /** A new terminal size (ignored without a tty, or when the runtime cannot resize). */
    default void resize(int width, int height) {}

    /** The caller went away: ends the command (an attach leaves the container running). */
    void abort();
}
