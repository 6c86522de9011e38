package io.kplane.client.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.TreeReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * The parsed YAML tree of a kubeconfig file, kept as JSON so that a short-lived process (kubectl-lite)
 * does not parse YAML in every run. Why: building Jackson's YAML parser (SnakeYAML's scanner and resolver
 * compile a few dozen regular expressions in their class initialisers) and parsing the file was about a
 * quarter of a {@code kubectl-lite get pods}' samples; the JSON parser is loaded anyway to read the API's
 * answer (docs/performance.md, "kubectl-lite").
 *
 * <p>An entry is believed only if it holds this very file's bytes: it records the file's absolute path and
 * its whole content, and a read compares the content with the file's, which the caller reads anyway. So an
 * edited, replaced or rewritten-within-the-same-second kubeconfig is parsed again whatever its size and
 * modification time say; an entry that cannot be read or parsed, or is of another format version, counts as
 * absent and is overwritten. Entries are written to a temporary file and moved into place (concurrent runs
 * see a whole entry or none), readable by the owner only, since a kubeconfig holds credentials; a cache
 * folder that cannot be written costs a parse per run and nothing else. The tree, not the mapped
 * {@link KubeConfig}, is kept, so {@link KubeConfigReader}'s rules and errors apply to every read.
 *
 * <p>Entries are pruned when one is written (a miss, which has just parsed YAML: never on the hit path): an
 * entry whose kubeconfig file no longer exists is deleted (stacks and tests write kubeconfigs into folders
 * they delete, and an entry is a copy of its file's credentials), as is one that cannot be read; of the rest,
 * only the {@link #MAX_ENTRIES} written last are kept; temporary files a killed run left behind go once they
 * are an hour old (a younger one may be another run's entry being written).
 */
public final class KubeConfigCache {
    /** No cache: every read parses the file. */
    public static final KubeConfigCache NONE = new KubeConfigCache(null);

    /** The entry format; an entry with another version is ignored. */
    static final int VERSION = 1;

    /** Entries kept: one per kubeconfig path, the ones written last; a pruned path costs one parse again. */
    static final int MAX_ENTRIES = 16;

    /** Age after which a temporary file is a killed run's leftover, not an entry being written. */
    static final long STALE_TEMP_MILLIS = 3_600_000;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Path dir;

    private KubeConfigCache(Path dir) {
        this.dir = dir;
    }

    /** A cache in folder {@code dir} (created on the first write, owner-only). */
    public static KubeConfigCache in(Path dir) {
        return new KubeConfigCache(dir);
    }

    /**
     * kubectl-lite's cache under {@code home}: {@code ~/.kube/cache/kubectl-lite}, beside kubectl's own
     * {@code discovery} and {@code http} caches in its default cache folder; {@link #NONE} without a home.
     */
    public static KubeConfigCache underHome(Path home) {
        return home == null ? NONE : in(home.resolve(".kube").resolve("cache").resolve("kubectl-lite"));
    }

    /** The YAML tree of {@code content}, the bytes of {@code file}: from the cache when it holds exactly them. */
    JsonNode tree(Path file, byte[] content) throws IOException {
        if (dir == null) {
            return TreeReader.yaml(content);
        }
        String path = file.toAbsolutePath().normalize().toString();
        String source = Base64.getEncoder().encodeToString(content);
        Path entry = dir.resolve(
                "kubeconfig-".concat(Integer.toHexString(path.hashCode())).concat(".json"));
        JsonNode cached = cached(entry, path, source);
        if (cached != null) {
            return cached;
        }
        JsonNode tree = TreeReader.yaml(content);
        if (tree != null && tree.isObject()) {
            store(entry, path, source, tree);
        }
        return tree;
    }

    /** The tree of {@code entry} if it holds the file at {@code path} with content {@code source}; else null. */
    private static JsonNode cached(Path entry, String path, String source) {
        if (!Files.isRegularFile(entry)) {
            return null;
        }
        try {
            JsonNode node = TreeReader.json(Files.readAllBytes(entry));
            JsonNode tree = node.get("tree");
            if (node.path("version").asInt() == VERSION
                    && path.equals(node.path("path").asText(null))
                    && source.equals(node.path("source").asText(null))
                    && tree != null
                    && tree.isObject()) {
                return tree;
            }
        } catch (IOException | RuntimeException e) {
            // unreadable or corrupt: parse the file and overwrite the entry
        }
        return null;
    }

    private void store(Path entry, String path, String source, JsonNode tree) {
        ObjectNode node = NODES.objectNode();
        node.put("version", VERSION);
        node.put("path", path);
        node.put("source", source);
        node.set("tree", tree);
        Path tmp = null;
        try {
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            tmp = Files.createTempFile(
                    dir,
                    "kubeconfig",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            // JsonNode.toString() writes standard JSON (Jackson 2.10 and later)
            Files.write(tmp, node.toString().getBytes(StandardCharsets.UTF_8));
            Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            prune(entry);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // no cache this time: the tree was parsed and is returned all the same
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // a stray temporary file is harmless: entries are only read under their own names
                }
            }
        }
    }

    /**
     * Deletes the entries of kubeconfig files that are gone, unreadable entries, all but the
     * {@link #MAX_ENTRIES} newest entries and old temporary files; {@code kept} (just written) stays.
     * Best effort: what cannot be listed or deleted now is left for the next write.
     */
    private void prune(Path kept) {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "kubeconfig*")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    if (olderThan(file, STALE_TEMP_MILLIS)) {
                        Files.deleteIfExists(file);
                    }
                } else if (name.endsWith(".json") && !file.equals(kept)) {
                    if (forGoneFile(file)) {
                        Files.deleteIfExists(file);
                    } else {
                        entries.add(file);
                    }
                }
            }
            if (entries.size() >= MAX_ENTRIES) {
                entries.sort(Comparator.comparing(KubeConfigCache::modified).reversed());
                for (Path old : entries.subList(MAX_ENTRIES - 1, entries.size())) {
                    Files.deleteIfExists(old);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a concurrent run pruned the same files, or the folder is not ours to change: next time
        }
    }

    /** Whether {@code entry} cannot be read or names a kubeconfig file that no longer exists. */
    private static boolean forGoneFile(Path entry) {
        try {
            String path =
                    TreeReader.json(Files.readAllBytes(entry)).path("path").asText(null);
            return path == null || !Files.exists(Path.of(path));
        } catch (NoSuchFileException e) {
            return false; // deleted meanwhile by a concurrent run
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    private static boolean olderThan(Path file, long millis) {
        return System.currentTimeMillis() - modified(file).toMillis() > millis;
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0); // gone meanwhile: oldest, and its delete is a no-op
        }
    }
}
