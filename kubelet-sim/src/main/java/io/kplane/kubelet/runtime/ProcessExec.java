package io.kplane.kubelet.runtime;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code exec} for the process runtime: the command runs as a host process with the container's
 * environment and working directory, inside the container's mount namespace (and chroot) when it has
 * one ({@code nsenter}, see {@link MountNamespace#enter}). A tty is a pseudo-terminal made by
 * util-linux {@code script}; the resize channel resizes it ({@link PtyResizer}).
 */
final class ProcessExec implements ExecSession {
    private final Process process;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final PtyResizer resizer;

    private ProcessExec(Process process, boolean tty) {
        this.process = process;
        this.resizer = tty ? new PtyResizer(process) : null;
        process.onExit().thenAccept(p -> {
            if (resizer != null) {
                resizer.close();
            }
            exit.complete(p.exitValue());
        });
    }

    /**
     * Starts {@code spec} next to the container process {@code pid}.
     *
     * @param env      the container's environment as it was started (PATH, HOME, HOSTNAME included)
     * @param workDir  the container's working directory as it sees it
     * @param hostDir  where that directory is on the host (used when there is no mount namespace)
     * @param enter    the {@code nsenter} prefix when the container has its own mount namespace, else empty
     */
    static ProcessExec start(ExecSpec spec, Map<String, String> env, String workDir, Path hostDir, List<String> enter)
            throws ExecNotSupportedException {
        List<String> argv = new ArrayList<>(enter);
        if (spec.tty()) {
            // a pseudo-terminal, the command its session leader (ContainerTerminal says why)
            argv.addAll(ContainerTerminal.onTerminal(spec.command()));
        } else {
            argv.addAll(spec.command());
        }
        ProcessBuilder pb = new ProcessBuilder(argv).directory(enter.isEmpty() ? hostDir.toFile() : new File("/"));
        pb.environment().clear();
        pb.environment().putAll(env);
        if (spec.tty() && !env.containsKey("TERM")) {
            pb.environment().put("TERM", "xterm");
        }
        if (!spec.stdin()) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        try {
            return new ProcessExec(pb.start(), spec.tty());
        } catch (IOException e) {
            // as runc words it, so kubectl shows what a container runtime would
            throw new ExecNotSupportedException("OCI runtime exec failed: exec failed: unable to start container "
                    + "process: exec: \"" + spec.command().get(0) + "\": executable file not found in $PATH: unknown");
        }
    }

    static String shellQuote(List<String> argv) {
        StringBuilder s = new StringBuilder();
        for (String a : argv) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append('\'').append(a.replace("'", "'\\''")).append('\'');
        }
        return s.toString();
    }

    @Override
    public OutputStream stdin() {
        return process.getOutputStream();
    }

    @Override
    public InputStream stdout() {
        return process.getInputStream();
    }

    @Override
    public InputStream stderr() {
        return process.getErrorStream();
    }

    @Override
    public CompletableFuture<Integer> exitCode() {
        return exit;
    }

    @Override
    public void resize(int width, int height) {
        if (resizer != null) {
            resizer.resize(width, height);
        }
    }

    @Override
    public void abort() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
