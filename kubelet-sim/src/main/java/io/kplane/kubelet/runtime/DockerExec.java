package io.kplane.kubelet.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Frame;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code exec} and {@code attach} through the Docker Engine API: {@code POST /containers/{id}/exec},
 * {@code POST /exec/{id}/start} (a hijacked connection carrying stdin one way and the multiplexed
 * stdout/stderr frames the other), {@code GET /exec/{id}/json} for the exit code and
 * {@code POST /exec/{id}/resize}; attach is {@code POST /containers/{id}/attach}.
 */
final class DockerExec implements ExecSession {
    private static final Logger log = LoggerFactory.getLogger(DockerExec.class);
    private static final int PIPE = 64 * 1024;

    private final DockerClient docker;
    private final String execId;
    private final PipedOutputStream stdinWriter;
    private final PipedInputStream stdoutReader;
    private final PipedInputStream stderrReader;
    private final PipedOutputStream stdout;
    private final PipedOutputStream stderr;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private volatile Closeable stream;

    private DockerExec(DockerClient docker, String execId, boolean stdin) throws IOException {
        this.docker = docker;
        this.execId = execId;
        this.stdoutReader = new PipedInputStream(PIPE);
        this.stderrReader = new PipedInputStream(PIPE);
        this.stdout = new PipedOutputStream(stdoutReader);
        this.stderr = new PipedOutputStream(stderrReader);
        this.stdinWriter = stdin ? new PipedOutputStream() : null;
    }

    /** Creates and starts an exec of {@code spec.command()} in container {@code id}. */
    static DockerExec exec(DockerClient docker, String id, ExecSpec spec, ExecutorService waiters)
            throws ExecNotSupportedException {
        ExecCreateCmdResponse created;
        try {
            created = docker.execCreateCmd(id)
                    .withCmd(spec.command().toArray(String[]::new))
                    .withAttachStdin(spec.stdin())
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(spec.tty())
                    .exec();
        } catch (DockerException e) {
            throw new ExecNotSupportedException(
                    e.getMessage() == null ? e.toString() : e.getMessage().trim());
        }
        try {
            DockerExec session = new DockerExec(docker, created.getId(), spec.stdin());
            var start = docker.execStartCmd(created.getId()).withDetach(false).withTty(spec.tty());
            if (spec.stdin()) {
                start.withStdIn(new PipedInputStream(session.stdinWriter, PIPE));
            }
            session.stream = start.exec(session.frames(() -> waiters.execute(session::readExitCode)));
            return session;
        } catch (IOException | DockerException e) {
            throw new ExecNotSupportedException(e.getMessage());
        }
    }

    /** Attaches to the main process of container {@code id} (its stdin only if it was started with one). */
    static DockerExec attach(DockerClient docker, String id, ExecSpec spec) throws ExecNotSupportedException {
        try {
            DockerExec session = new DockerExec(docker, null, spec.stdin());
            var attach = docker.attachContainerCmd(id)
                    .withStdOut(true)
                    .withStdErr(true)
                    .withFollowStream(true)
                    .withLogs(false);
            if (spec.stdin()) {
                attach.withStdIn(new PipedInputStream(session.stdinWriter, PIPE));
            }
            session.stream = attach.exec(session.frames(() -> session.exit.complete(0)));
            return session;
        } catch (IOException | DockerException e) {
            throw new ExecNotSupportedException(e.getMessage());
        }
    }

    private ResultCallback.Adapter<Frame> frames(Runnable onEnd) {
        return new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                try {
                    (switch (frame.getStreamType()) {
                                case STDERR -> stderr;
                                default -> stdout;
                            })
                            .write(frame.getPayload());
                } catch (IOException e) {
                    log.debug("exec output dropped: {}", e.toString());
                }
            }

            @Override
            public void onError(Throwable throwable) {
                log.debug("exec stream failed: {}", throwable.toString());
                end();
            }

            @Override
            public void onComplete() {
                end();
            }

            private void end() {
                closeQuietly(stdout);
                closeQuietly(stderr);
                onEnd.run();
            }
        };
    }

    /** The exit code, once the engine has recorded it (the stream can end a moment before). */
    private void readExitCode() {
        try {
            for (int i = 0; i < 100; i++) {
                var info = docker.inspectExecCmd(execId).exec();
                if (!Boolean.TRUE.equals(info.isRunning()) && info.getExitCodeLong() != null) {
                    exit.complete(info.getExitCodeLong().intValue());
                    return;
                }
                Thread.sleep(20); // the engine records the exit just after closing the stream
            }
            exit.completeExceptionally(new IllegalStateException("the engine did not report the exit code"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit.completeExceptionally(e);
        } catch (RuntimeException e) {
            exit.completeExceptionally(e);
        }
    }

    @Override
    public OutputStream stdin() {
        return stdinWriter != null ? stdinWriter : OutputStream.nullOutputStream();
    }

    @Override
    public InputStream stdout() {
        return stdoutReader;
    }

    @Override
    public InputStream stderr() {
        return stderrReader;
    }

    @Override
    public CompletableFuture<Integer> exitCode() {
        return exit;
    }

    @Override
    public void resize(int width, int height) {
        if (execId == null) {
            return;
        }
        try {
            docker.resizeExecCmd(execId).withSize(height, width).exec();
        } catch (RuntimeException e) {
            log.debug("resize of exec {} failed: {}", execId, e.toString());
        }
    }

    @Override
    public void abort() {
        closeQuietly(stream);
        closeQuietly(stdinWriter);
    }

    private static void closeQuietly(Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException | RuntimeException ignored) {
            // already closed
        }
    }
}
