package io.kplane.kubelet.runtime;

import io.kplane.api.util.DaemonThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resizes the pseudo-terminal that util-linux {@code script} made for a {@code tty} exec of the process
 * runtime: finds the command under {@code script} whose stdin is a {@code /dev/pts} device and runs
 * {@code stty -F /proc/PID/fd/0 rows H cols W} on it (through {@code /proc}, so it works inside the
 * container's mount namespace too); the kernel then sends the command SIGWINCH, as a runtime's
 * console resize does. The first size usually arrives before {@code script} has started its command,
 * so each resize waits for it a little; resizes are applied in order on one thread per session.
 */
final class PtyResizer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PtyResizer.class);
    private static final Duration FIND_FOR = Duration.ofSeconds(10);

    private final Process script;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(DaemonThreads.named("exec-resize"));

    PtyResizer(Process script) {
        this.script = script;
    }

    void resize(int width, int height) {
        try {
            worker.execute(() -> apply(width, height));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the session has ended
        }
    }

    private void apply(int width, int height) {
        long deadline = System.nanoTime() + FIND_FOR.toNanos();
        while (script.isAlive() && System.nanoTime() < deadline) {
            Optional<Path> terminal = terminal();
            if (terminal.isPresent()) {
                stty(terminal.get(), width, height);
                return;
            }
            try {
                Thread.sleep(20); // polling /proc for script's child: there is no event to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** {@code /proc/PID/fd/0} of the first descendant whose stdin is a pseudo-terminal. */
    private Optional<Path> terminal() {
        return script.descendants()
                .map(p -> Path.of("/proc", Long.toString(p.pid()), "fd", "0"))
                .filter(fd -> {
                    try {
                        return Files.readSymbolicLink(fd).toString().startsWith("/dev/pts/");
                    } catch (IOException | UnsupportedOperationException e) {
                        return false;
                    }
                })
                .findFirst();
    }

    private static void stty(Path terminal, int width, int height) {
        try {
            Process stty = new ProcessBuilder(
                            "stty",
                            "-F",
                            terminal.toString(),
                            "rows",
                            Integer.toString(height),
                            "cols",
                            Integer.toString(width))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!stty.waitFor(5, TimeUnit.SECONDS)) {
                stty.destroyForcibly();
            }
        } catch (IOException e) {
            log.debug("resize of {} failed: {}", terminal, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        worker.shutdown();
    }
}
