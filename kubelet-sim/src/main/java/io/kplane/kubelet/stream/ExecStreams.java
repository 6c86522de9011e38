package io.kplane.kubelet.stream;

import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.runtime.ExecNotSupportedException;
import io.kplane.kubelet.runtime.ExecSession;
import io.kplane.kubelet.runtime.ExecSpec;
import io.vertx.core.http.ServerWebSocket;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
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

    private final ContainerRuntime runtime;
    private final ExecutorService pumps;

    ExecStreams(ContainerRuntime runtime, ExecutorService pumps) {
        this.runtime = runtime;
        this.pumps = pumps;
    }

    /** Starts the session for {@code request} on container {@code containerId}; returns at once. */
    void run(StreamRequest request, String containerId, ServerWebSocket ws) {
        pumps.execute(() -> serve(request, containerId, ws));
    }

    private void serve(StreamRequest request, String containerId, ServerWebSocket ws) {
        ChannelStream channels = new ChannelStream(ws);
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
        channels.onInput(stdin, session::resize, session::abort);
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
