package io.kplane.kubelet.runtime;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.exception.DockerException;
import io.kplane.client.time.Clock;
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
 * {@code exec} and {@code attach} through the Docker Engine API: {@code POST /containers/{id}/exec}
 * (docker-java), then {@code POST /exec/{id}/start} on a hijacked connection of its own
 * ({@link EngineHijack}: stdin one way, the multiplexed stdout/stderr frames the other, and the end of
 * stdin as a half-close, which docker-java cannot send), {@code GET /exec/{id}/json} for the exit code
 * and {@code POST /exec/{id}/resize}; attach is {@code POST /containers/{id}/attach} hijacked the same way.
 * Resizes go through {@link DockerTerminalResizer} (Podman's conmon can apply a stale size of two sent at
 * once).
 */
final class DockerExec implements ExecSession {
    private static final Logger log = LoggerFactory.getLogger(DockerExec.class);
    private static final int PIPE = 64 * 1024;

    private final DockerClient docker;
    private final String execId;
    /** The container an attach is attached to (its terminal is resized); null for an exec. */
    private final String attachedContainer;

    private final PipedInputStream stdoutReader;
    private final PipedInputStream stderrReader;
    private final PipedOutputStream stdout;
    private final PipedOutputStream stderr;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final DockerTerminalResizer resizer;
    private volatile EngineHijack stream;
    private volatile boolean withStdin;

    private DockerExec(DockerClient docker, String execId, String attachedContainer, ExecutorService waiters)
            throws IOException {
        this.docker = docker;
        this.execId = execId;
        this.attachedContainer = attachedContainer;
        // the repeats' quiet periods are about the engine, not the cluster: wall time
        this.resizer = new DockerTerminalResizer(this::engineResize, Clock.system(), waiters);
        this.stdoutReader = new PipedInputStream(PIPE);
        this.stderrReader = new PipedInputStream(PIPE);
        this.stdout = new PipedOutputStream(stdoutReader);
        this.stderr = new PipedOutputStream(stderrReader);
    }

    /** Creates and starts an exec of {@code spec.command()} in container {@code id}. */
    static DockerExec exec(DockerClient docker, String dockerHost, String id, ExecSpec spec, ExecutorService waiters)
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
            DockerExec session = new DockerExec(docker, created.getId(), null, waiters);
            session.start(
                    EngineHijack.open(
                            dockerHost,
                            "/exec/" + created.getId() + "/start",
                            "{\"Detach\":false,\"Tty\":" + spec.tty() + "}"),
                    spec,
                    spec.tty(),
                    waiters,
                    session::readExitCode);
            return session;
        } catch (IOException e) {
            throw new ExecNotSupportedException(e.getMessage());
        }
    }

    /**
     * Attaches to the main process of container {@code id} (its stdin only if it was started with one);
     * {@code containerTty}: the container was created with a terminal, so its output comes raw.
     */
    static DockerExec attach(
            DockerClient docker,
            String dockerHost,
            String id,
            ExecSpec spec,
            boolean containerTty,
            ExecutorService waiters)
            throws ExecNotSupportedException {
        try {
            DockerExec session = new DockerExec(docker, null, containerTty ? id : null, waiters);
            String path = "/containers/" + id + "/attach?stream=1&stdout=1&stderr=1" + (spec.stdin() ? "&stdin=1" : "");
            session.start(
                    EngineHijack.open(dockerHost, path, ""),
                    spec,
                    containerTty,
                    waiters,
                    () -> session.exit.complete(0));
            return session;
        } catch (IOException e) {
            throw new ExecNotSupportedException(e.getMessage());
        }
    }

    /** Copies the engine's output into the stdout/stderr pipes on a thread of its own until it ends. */
    private void start(EngineHijack hijack, ExecSpec spec, boolean raw, ExecutorService waiters, Runnable onEnd) {
        this.stream = hijack;
        this.withStdin = spec.stdin();
        if (!spec.stdin()) {
            closeQuietly(hijack.stdin()); // the engine gets the end of stdin at once
        }
        waiters.execute(() -> {
            try {
                if (raw) {
                    EngineFrames.copyRaw(hijack.output(), stdout);
                } else {
                    EngineFrames.demultiplex(hijack.output(), stdout, stderr);
                }
            } catch (IOException e) {
                log.debug("exec stream ended: {}", e.toString());
            } finally {
                resizer.close();
                closeQuietly(stdout);
                closeQuietly(stderr);
                closeQuietly(hijack);
                onEnd.run();
            }
        });
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
        return withStdin ? stream.stdin() : OutputStream.nullOutputStream();
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
        resizer.resize(width, height);
    }

    private void engineResize(int width, int height) {
        try {
            if (execId != null) {
                docker.resizeExecCmd(execId).withSize(height, width).exec();
            } else if (attachedContainer != null) {
                // attach -t to a tty container: its own terminal follows the client's (POST /containers/{id}/resize)
                docker.resizeContainerCmd(attachedContainer)
                        .withSize(height, width)
                        .exec();
            }
        } catch (RuntimeException e) {
            log.debug("resize of {} failed: {}", execId != null ? execId : attachedContainer, e.toString());
        }
    }

    @Override
    public void abort() {
        resizer.close();
        closeQuietly(stream);
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
