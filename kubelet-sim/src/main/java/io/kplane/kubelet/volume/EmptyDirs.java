package io.kplane.kubelet.volume;

import io.kplane.api.core.EmptyDirVolumeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * emptyDir volumes: a directory of the pod on the node's disk, or for {@code medium: Memory} a tmpfs
 * mounted there (sized by {@code sizeLimit}, as the kubelet does), so every container of the pod
 * shares it. Mounting a tmpfs needs root (CAP_SYS_ADMIN); without it the directory stays on disk and
 * the caller is told so (a Warning event), never silently.
 */
final class EmptyDirs {
    private static final Logger log = LoggerFactory.getLogger(EmptyDirs.class);

    private EmptyDirs() {}

    /** @return null, or why a Memory medium is kept on disk */
    static String setUp(Path dir, EmptyDirVolumeSource src) throws VolumeSetupException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new VolumeSetupException("cannot create " + dir + ": " + e.getMessage());
        }
        if (src == null || !EmptyDirVolumeSource.MEDIUM_MEMORY.equals(src.medium()) || isMountPoint(dir)) {
            return null;
        }
        String options = "mode=0777";
        if (src.sizeLimit() != null) {
            try {
                options += ",size=" + Quantities.bytes(src.sizeLimit());
            } catch (IllegalArgumentException e) {
                throw new VolumeSetupException(e.getMessage());
            }
        }
        String out = run(List.of("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString()));
        if (out != null) {
            log.warn("emptyDir {} with medium Memory stays on disk: {}", dir, out);
            return "tmpfs for medium Memory could not be mounted (" + out + "): the emptyDir is on the node's disk";
        }
        return null;
    }

    /** Unmounts every mount under {@code dir} (tmpfs emptyDirs), deepest first; works after a kubelet restart. */
    static void unmountAll(Path dir) {
        List<String> points = new ArrayList<>();
        String prefix = dir.toAbsolutePath().normalize() + "/";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 1) {
                    String point = f[1].replace("\\040", " ");
                    if (point.startsWith(prefix)) {
                        points.add(point);
                    }
                }
            }
        } catch (IOException e) {
            return; // no /proc: nothing was mounted either
        }
        points.sort((a, b) -> b.length() - a.length());
        for (String p : points) {
            String out = run(List.of("umount", "-l", p));
            if (out != null) {
                log.warn("cannot unmount {}: {}", p, out);
            }
        }
    }

    static boolean isMountPoint(Path dir) {
        String target = dir.toAbsolutePath().normalize().toString();
        try {
            return Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                    .map(l -> l.split(" "))
                    .anyMatch(f -> f.length > 1 && f[1].replace("\\040", " ").equals(target));
        } catch (IOException e) {
            return false;
        }
    }

    /** @return null on success, else the command's output */
    private static String run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : out.isEmpty() ? "exit " + p.exitValue() : out;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
