package io.kplane.kubelet.logs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Opens log writers for container attempts and finds logs for the HTTP endpoint: which file holds a
 * container's current (or previous) attempt, and whether something is still writing it (so a
 * follower knows when to stop).
 */
public final class LogRegistry {
    private final Path root;
    private final long maxBytes;
    private final int maxFiles;
    private final Supplier<Instant> clock;
    private final Map<Path, CriLogWriter> open = new ConcurrentHashMap<>();

    public LogRegistry(Path root, long maxBytes, int maxFiles, Supplier<Instant> clock) {
        this.root = root;
        this.maxBytes = maxBytes;
        this.maxFiles = maxFiles;
        this.clock = clock;
    }

    public CriLogWriter open(String namespace, String pod, String uid, String container, int attempt) {
        Path path = LogFiles.containerLog(root, namespace, pod, uid, container, attempt);
        CriLogWriter writer = new CriLogWriter(path, maxBytes, maxFiles, clock);
        CriLogWriter previous = open.put(path, writer);
        if (previous != null) {
            previous.close();
        }
        return writer;
    }

    public void close(CriLogWriter writer) {
        writer.close();
        open.remove(writer.path(), writer);
    }

    public boolean isWriting(Path path) {
        CriLogWriter w = open.get(path);
        return w != null && !w.isClosed();
    }

    /** Removes a deleted pod's logs. */
    public void deletePodLogs(String namespace, String pod, String uid) {
        Path dir = LogFiles.podDir(root, namespace, pod, uid);
        open.keySet().removeIf(p -> p.startsWith(dir));
        io.kplane.kubelet.pod.PodStateStore.deleteTreeQuietly(dir);
    }

    /**
     * The log file of a container's latest attempt ({@code previous}: the one before), found on disk:
     * the newest pod directory for namespace/name, the highest attempt number.
     */
    public Optional<Path> find(String namespace, String pod, String container, boolean previous) {
        Path logs = root.resolve("logs");
        if (!Files.isDirectory(logs)) {
            return Optional.empty();
        }
        Path newestPod = null;
        FileTime newest = null;
        String prefix = namespace + "_" + pod + "_";
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(
                logs,
                d -> d.getFileName().toString().startsWith(prefix)
                        && d.getFileName().toString().indexOf('_', prefix.length()) < 0)) {
            for (Path d : dirs) {
                FileTime t = Files.getLastModifiedTime(d);
                if (newest == null || t.compareTo(newest) > 0) {
                    newest = t;
                    newestPod = d;
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        if (newestPod == null) {
            return Optional.empty();
        }
        Path dir = newestPod.resolve(container);
        int highest = -1;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.log")) {
            for (Path f : files) {
                String n = f.getFileName().toString();
                try {
                    highest = Math.max(highest, Integer.parseInt(n.substring(0, n.length() - 4)));
                } catch (NumberFormatException ignored) {
                    // not ours
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        int attempt = previous ? highest - 1 : highest;
        if (attempt < 0) {
            return Optional.empty();
        }
        return Optional.of(dir.resolve(attempt + ".log"));
    }
}
