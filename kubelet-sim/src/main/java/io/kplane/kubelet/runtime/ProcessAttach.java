package io.kplane.kubelet.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/**
 * {@code attach} to a host-process container: its main process's own streams. Output is what the
 * container writes from the moment of attaching ({@link AttachableOutput}); input goes to the
 * process's stdin, which is open only when the pod spec says {@code stdin: true} — otherwise input is
 * dropped, as containerd drops it for a container created without stdin (Kubernetes gives no error).
 * With {@code stdinOnce: true} the container's stdin is closed when the first attach that sent input
 * ends. The session ends when the container exits or the client leaves; the container keeps running.
 */
final class ProcessAttach implements ExecSession {
    private final InputStream stdout;
    private final InputStream stderr;
    private final OutputStream stdin;
    private final CompletableFuture<Integer> ended = new CompletableFuture<>();
    /** The container's terminal when it has one ({@code tty: true}); null otherwise. */
    private final PtyResizer terminal;

    ProcessAttach(
            AttachableOutput out,
            AttachableOutput err,
            OutputStream containerStdin,
            boolean stdinOnce,
            CompletableFuture<?> containerExited,
            PtyResizer terminal) {
        this.stdout = out.listen();
        this.stderr = err.listen();
        this.stdin =
                containerStdin == null ? OutputStream.nullOutputStream() : new SharedStdin(containerStdin, stdinOnce);
        this.terminal = terminal;
        containerExited.whenComplete((v, t) -> ended.complete(0));
    }

    /** A {@code tty: true} container's terminal follows the attach's terminal size (kubectl's channel 4). */
    @Override
    public void resize(int width, int height) {
        if (terminal != null) {
            terminal.resize(width, height);
        }
    }

    @Override
    public OutputStream stdin() {
        return stdin;
    }

    @Override
    public InputStream stdout() {
        return stdout;
    }

    @Override
    public InputStream stderr() {
        return stderr;
    }

    /** 0 when the container has exited or the attach was ended (an attach has no exit code of its own). */
    @Override
    public CompletableFuture<Integer> exitCode() {
        return ended;
    }

    @Override
    public void abort() {
        closeQuietly(stdout);
        closeQuietly(stderr);
        ended.complete(0);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // a listener's close cannot fail
        }
    }

    /**
     * The container's stdin as one attach writes it: closing it detaches (the stdin stays open for the
     * next attach) unless the container said {@code stdinOnce}.
     */
    private static final class SharedStdin extends OutputStream {
        private final OutputStream target;
        private final boolean stdinOnce;

        SharedStdin(OutputStream target, boolean stdinOnce) {
            this.target = target;
            this.stdinOnce = stdinOnce;
        }

        @Override
        public void write(int b) throws IOException {
            synchronized (target) {
                target.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            synchronized (target) {
                target.write(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            synchronized (target) {
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (stdinOnce) {
                target.close();
            }
        }
    }
}
