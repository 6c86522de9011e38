package io.kplane.kubelet.volume;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Writes a volume's files so that a reader never sees a half-updated set, as the kubelet's
 * {@code pkg/volume/util/atomic_writer.go} does:
 *
 * <pre>
 *   target/..2026_11_23_22_10_00.8f3a…/run.sh     the files of one version, in a timestamped directory
 *   target/..data -> ..2026_11_23_22_10_00.8f3a…  switched by renaming a new symlink over it (atomic)
 *   target/run.sh -> ..data/run.sh                the user-visible names, created once per top-level path
 * </pre>
 *
 * A new version is written only when content or modes differ; the old directory is removed after the
 * switch, and user-visible names no longer in the payload are removed.
 */
public final class AtomicWriter {
    static final String DATA_DIR = "..data";
    private static final String NEW_DATA_DIR = "..data_tmp";
    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("'..'yyyy_MM_dd_HH_mm_ss.").withZone(ZoneOffset.UTC);

    private AtomicWriter() {}

    /** @return true if a new version was written */
    public static boolean write(Path target, Map<String, FileProjection> payload) throws IOException {
        for (String path : payload.keySet()) {
            validate(path);
        }
        Files.createDirectories(target);
        Path data = target.resolve(DATA_DIR);
        String oldTs = Files.isSymbolicLink(data) ? Files.readSymbolicLink(data).toString() : null;
        if (oldTs != null && sameContent(target.resolve(oldTs), payload)) {
            return false;
        }
        String tsName = TS.format(java.time.Instant.now())
                + UUID.randomUUID().toString().substring(0, 8);
        Path ts = target.resolve(tsName);
        Files.createDirectory(ts);
        for (var e : payload.entrySet()) {
            Path file = ts.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue().data());
            Files.setPosixFilePermissions(file, permissions(e.getValue().mode()));
        }
        Path tmpLink = target.resolve(NEW_DATA_DIR);
        Files.deleteIfExists(tmpLink);
        Files.createSymbolicLink(tmpLink, Path.of(tsName));
        Files.move(tmpLink, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        Set<String> visible = new HashSet<>();
        for (String path : payload.keySet()) {
            visible.add(topLevel(path));
        }
        for (String name : visible) {
            Path link = target.resolve(name);
            if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createSymbolicLink(link, Path.of(DATA_DIR, name));
                } catch (FileAlreadyExistsException ignored) {
                    // created by a concurrent writer: same link
                }
            }
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(target)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!name.startsWith("..") && !visible.contains(name) && Files.isSymbolicLink(entry)) {
                    Files.deleteIfExists(entry); // a key that is gone
                }
            }
        }
        if (oldTs != null && !oldTs.equals(tsName)) {
            deleteTree(target.resolve(oldTs));
        }
        return true;
    }

    private static boolean sameContent(Path dir, Map<String, FileProjection> payload) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        for (var e : payload.entrySet()) {
            Path file = dir.resolve(e.getKey());
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                    || !Arrays.equals(Files.readAllBytes(file), e.getValue().data())
                    || !Files.getPosixFilePermissions(file)
                            .equals(permissions(e.getValue().mode()))) {
                return false;
            }
        }
        try (var walk = Files.walk(dir)) {
            long files = walk.filter(Files::isRegularFile).count();
            return files == payload.size();
        }
    }

    /** As the API server's validation: relative, no {@code ..} element, not starting with {@code ..}. */
    static void validate(String path) throws IOException {
        if (path == null
                || path.isEmpty()
                || path.startsWith("/")
                || path.startsWith("..")
                || Arrays.asList(path.split("/")).contains("..")) {
            throw new IOException("invalid path \"" + path + "\": must be relative, without '..'");
        }
    }

    private static String topLevel(String path) {
        int slash = path.indexOf('/');
        return slash < 0 ? path : path.substring(0, slash);
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
        };
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                p.add(bits[i]);
            }
        }
        return p;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
