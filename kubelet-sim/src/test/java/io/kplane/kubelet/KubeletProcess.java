package io.kplane.kubelet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A kubelet-sim running as its own JVM from the test classpath, so that tests can kill -9 it. */
final class KubeletProcess implements AutoCloseable {
    private final Process process;

    private KubeletProcess(Process process) {
        this.process = process;
    }

    static KubeletProcess start(String server, String node, Path rootDir, Path logFile, String runtime, String... extra)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.kplane.kubelet.KubeletMain",
                "--server",
                server,
                "--node-name",
                node,
                "--port",
                "0",
                "--root-dir",
                rootDir.toString(),
                "--runtime",
                runtime,
                "--lease-interval",
                "1s",
                "--crashloop-base",
                "300ms",
                "--crashloop-max",
                "2s"));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        return new KubeletProcess(p);
    }

    /** SIGKILL: no shutdown hook runs, nothing is cleaned up. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill9();
            }
        }
    }
}
