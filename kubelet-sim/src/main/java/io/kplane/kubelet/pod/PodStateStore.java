package io.kplane.kubelet.pod;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kplane.api.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Per-pod state files under {@code <root>/pods/<uid>/}: {@code state.json} (written atomically by
 * rename, so a kill -9 leaves either the old or the new state) and the pod's scratch directory.
 */
public final class PodStateStore {
    private final Path podsDir;
    private final ObjectMapper mapper = Json.mapper();

    public PodStateStore(Path root) {
        this.podsDir = root.resolve("pods");
        try {
            Files.createDirectories(podsDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + podsDir, e);
        }
    }

    public Path podDir(String uid) {
        return podsDir.resolve(uid);
    }

    /** A private working directory for the pod's host processes. */
    public Path scratchDir(String uid) {
        Path dir = podDir(uid).resolve("work");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    public Optional<PodRecord> load(String uid) {
        Path file = podDir(uid).resolve("state.json");
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(mapper.readValue(file.toFile(), PodRecord.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public void save(PodRecord record) {
        Path dir = podDir(record.uid);
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve("state.json.tmp");
            Files.write(tmp, mapper.writeValueAsBytes(record));
            Files.move(
                    tmp,
                    dir.resolve("state.json"),
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot persist state of pod " + record.uid, e);
        }
    }

    /** UIDs of every pod with state on disk. */
    public List<String> knownUids() {
        List<String> uids = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(podsDir)) {
            for (Path d : dirs) {
                if (Files.exists(d.resolve("state.json"))) {
                    uids.add(d.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uids;
    }

    public void delete(String uid) {
        deleteTree(podDir(uid));
    }

    public static void deleteTreeQuietly(Path dir) {
        deleteTree(dir);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a leftover file does no harm
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
