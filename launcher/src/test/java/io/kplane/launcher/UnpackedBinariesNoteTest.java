package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackedBinariesNoteTest {
    @TempDir
    Path tmp;

    @Test
    void aCompleteInstallationIsRememberedForTheSameClassPath() throws Exception {
        Path installation = installation(true);
        String classPath = classPath();
        UnpackedBinariesNote.write(UnpackedBinariesNote.forClassPath(classPath, tmp.resolve("notes")), installation);

        assertThat(UnpackedBinariesNote.read(UnpackedBinariesNote.forClassPath(classPath, tmp.resolve("notes"))))
                .isEqualTo(installation.toAbsolutePath());
    }

    @Test
    void anotherBuildOfAJarIsAnotherClassPath() throws Exception {
        String classPath = classPath();
        Path before = UnpackedBinariesNote.forClassPath(classPath, tmp);
        Files.setLastModifiedTime(
                tmp.resolve("a.jar"), FileTime.from(Instant.now().plusSeconds(60)));

        assertThat(UnpackedBinariesNote.forClassPath(classPath, tmp)).isNotEqualTo(before);
    }

    @Test
    void anIncompleteOrMissingInstallationIsNotBelieved() throws Exception {
        Path incomplete = installation(false);
        Path note = UnpackedBinariesNote.forClassPath(classPath(), tmp.resolve("notes"));
        UnpackedBinariesNote.write(note, incomplete);
        assertThat(UnpackedBinariesNote.read(note)).isNull();

        Files.writeString(note, tmp.resolve("gone").toString());
        assertThat(UnpackedBinariesNote.read(note)).isNull();
        assertThat(UnpackedBinariesNote.read(tmp.resolve("no-note"))).isNull();
    }

    private String classPath() throws Exception {
        Files.writeString(tmp.resolve("a.jar"), "a");
        Files.writeString(tmp.resolve("b.jar"), "bb");
        return tmp.resolve("a.jar") + File.pathSeparator + tmp.resolve("b.jar");
    }

    /** A directory laid out as zonky leaves an unpacked installation; {@code complete}: with its marker. */
    private Path installation(boolean complete) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("PG-" + complete));
        Path postgres = Files.createDirectories(dir.resolve("bin")).resolve("postgres");
        Files.writeString(postgres, "#!/bin/sh\n");
        assertThat(postgres.toFile().setExecutable(true)).isTrue();
        if (complete) {
            Files.createFile(dir.resolve(".exists"));
        }
        return dir;
    }
}
