package io.kplane.kubelet.stream;

import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.runtime.ExecNotSupportedException;
import io.kplane.kubelet.runtime.ExecSession;
import io.kplane.kubelet.runtime.ExecSpec;
import io.vertx.core.http.ServerWebSocket;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one exec or attach over an upgraded WebSocket ({@link ChannelStream}): starts the command in
 * the runtime, copies stdout/stderr out and stdin in, and when the command has ended and its output
 * is copied writes the exit {@code Status} on the error channel and closes.
 */
final class ExecStreams {
    private static final Logger log = LoggerFactory.getLogger(ExecStreams.class);
    private static final InputStream EMPTY = InputStream.nullInputStream();

    /**
     * How long a command whose client has gone may still run. A v4 client (fabric8 7.x) can end stdin
     * only by closing the connection: its {@code upload} writes {@code cat - > file}'s input, closes,
     * then checks the file's size in a second exec, so the command must outlive the connection long
     * enough to finish. The kubelet never kills it; kplane does after this, so a forgotten
     * {@code kubectl exec POD -- sleep 1d} does not outlive its caller by much.
     */
    static final Duration CLIENT_GONE_GRACE = Duration.ofSeconds(30);

    private final ContainerRuntime runtime;
    private final ExecutorService pumps;

    ExecStreams(ContainerRuntime runtime, ExecutorService pumps) {
        this.runtime = runtime;
        this.pumps = pumps;
    }

    /** Starts the session for {@code request} on container {@code containerId}; returns at once. */
    void run(StreamRequest request, String containerId, ServerWebSocket ws) {
        ChannelStream channels = new ChannelStream(ws); // on the event loop: takes input from now on
        CompletableFuture<Void> ended = new CompletableFuture<>();
        if (request.kind().equals("exec") && request.stdin()) {
            ClientCloseHold.install(ws, ended); // a v4 client's close is its end of stdin
        }
        pumps.execute(() -> {
            try {
                serve(request, containerId, channels);
            } finally {
                ended.complete(null);
            }
        });
    }

    private void serve(StreamRequest request, String containerId, ChannelStream channels) {
        ExecSession session;
        try {
            session = runtime.exec(containerId, new ExecSpec(request.command(), request.stdin(), request.tty()));
        } catch (ExecNotSupportedException e) {
            channels.finish(ExecStatus.internalError(e.getMessage()));
            return;
        } catch (RuntimeException e) {
            log.warn("exec in {} failed", containerId, e);
            channels.finish(ExecStatus.internalError(e.toString()));
            return;
        }
        log.info(
                "{} {}/{}/{}: {}",
                request.kind(),
                request.namespace(),
                request.pod(),
                request.container(),
                request.command());
        OutputStream stdin = request.stdin() ? session.stdin() : OutputStream.nullOutputStream();
        if (!request.stdin()) {
            closeQuietly(session.stdin());
        }
        // the client leaving ends stdin (after what it sent); an exec then gets the grace to finish,
        // an attach detaches at once (the container keeps running either way)
        Runnable clientGone =
                request.kind().equals("exec") ? () -> abortUnlessEndedWithinGrace(session) : session::abort;
        channels.onInput(stdin, session::resize, clientGone);
        Future<?> out = pumps.submit(() ->
                channels.pump(request.stdout() ? session.stdout() : drain(session.stdout()), ChannelStream.STDOUT));
        Future<?> err = pumps.submit(() ->
                channels.pump(request.stderr() ? session.stderr() : drain(session.stderr()), ChannelStream.STDERR));
        Integer code;
        try {
            code = session.exitCode().get();
        } catch (Exception e) {
            channels.finish(ExecStatus.internalError(
                    e.getCause() == null ? e.toString() : e.getCause().getMessage()));
            return;
        }
        // the output of a command that has exited is still in its pipes: copy it before the status
        awaitQuietly(out);
        awaitQuietly(err);
        channels.finish(
                code == 0
                        ? ExecStatus.success()
                        : ExecStatus.exitCode(request.command().isEmpty() ? List.of() : request.command(), code));
    }

    private void abortUnlessEndedWithinGrace(ExecSession session) {
        CompletableFuture.delayedExecutor(CLIENT_GONE_GRACE.toMillis(), TimeUnit.MILLISECONDS, pumps)
                .execute(() -> {
                    if (!session.exitCode().isDone()) {
                        session.abort();
                    }
                });
    }

    /** A stream the client did not ask for is still read (so the command never blocks on it), then dropped. */
    private InputStream drain(InputStream in) {
        pumps.execute(() -> {
            try (in) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (Exception ignored) {
                // nothing to keep
            }
        });
        return EMPTY;
    }

    private static void awaitQuietly(Future<?> f) {
        try {
            f.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // a descendant still holds the pipe open: report the exit without its remaining output
        }
    }

    private static void closeQuietly(OutputStream s) {
        try {
            s.close();
        } catch (Exception ignored) {
            // already closed
        }
    }
}
