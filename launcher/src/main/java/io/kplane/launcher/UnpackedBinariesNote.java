package io.kplane.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Remembers where zonky unpacked the PostgreSQL binaries for this class path, so that the next
 * preparation of a data directory need not digest zonky's archive again to find them.
 *
 * <p>The note is a file beside zonky's unpacked directories ({@code java.io.tmpdir/embedded-pg}), named
 * after a digest of the class path's entries with their sizes and modification times: another build of a
 * jar (another archive, possibly another PostgreSQL) gives another name, and so zonky's own look-up again.
 * A note is believed only while the directory it names is complete (zonky's {@code .exists} marker, written
 * after unpacking, and an executable {@code bin/postgres}); anything unexpected means no note.
 */
final class UnpackedBinariesNote {
    private UnpackedBinariesNote() {}

    /** The installation directory remembered for this JVM's class path, or null. */
    static Path read() {
        return read(forThisClassPath());
    }

    /** Records {@code dir} for this JVM's class path; a failure to write only means zonky is asked next time. */
    static void write(Path dir) {
        write(forThisClassPath(), dir);
    }

    static Path read(Path note) {
        try {
            if (note == null || !Files.isRegularFile(note)) {
                return null;
            }
            Path dir = Path.of(Files.readString(note, StandardCharsets.UTF_8).trim());
            return Files.exists(dir.resolve(".exists"))
                            && Files.isExecutable(dir.resolve("bin").resolve("postgres"))
                    ? dir
                    : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static void write(Path note, Path dir) {
        try {
            if (note == null) {
                return;
            }
            Files.createDirectories(note.getParent());
            Path tmp = Files.createTempFile(note.getParent(), note.getFileName().toString(), ".tmp");
            Files.writeString(tmp, dir.toAbsolutePath().toString(), StandardCharsets.UTF_8);
            Files.move(tmp, note, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // not remembered
        }
    }

    private static Path forThisClassPath() {
        return forClassPath(
                System.getProperty("java.class.path", ""),
                Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg"));
    }

    /** The note's file for {@code classPath} in {@code dir}: named after the entries, their sizes and times. */
    static Path forClassPath(String classPath, Path dir) {
        StringBuilder key = new StringBuilder();
        for (String entry : classPath.split(File.pathSeparator)) {
            File f = new File(entry);
            key.append(f.getAbsolutePath())
                    .append('|')
                    .append(f.length())
                    .append('|')
                    .append(f.lastModified())
                    .append('\n');
        }
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return dir.resolve("kplane-binaries-" + HexFormat.of().formatHex(digest, 0, 12));
        } catch (NoSuchAlgorithmException e) {
            return null;
        }
    }
}
