package io.kplane.kubelet.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interleavings of a following reader with a rotation that real renames hit only now and then
 * ({@link CriLogTest#followMissesNothingWhileTheWriterRotatesOnEveryRecord} meets them by chance),
 * replayed one by one: the reader's directory snapshots come through a script that returns what a
 * pass overlapping a rotation can see (a file without its key, a snapshot a rename made stale) and
 * rotates the real files at that moment. Every write here rotates, so each file holds one line.
 */
class CriLogReaderRaceTest {
    @TempDir
    Path dir;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static void write(CriLogWriter w, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        w.write("stdout", Instant.parse("2026-01-01T00:00:00Z"), bytes, 0, bytes.length, true);
    }

    static Object keyOf(Path path) throws Exception {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    /** {@code snapshot} as a pass sees it when it reads the file with {@code key} mid-rename: no key. */
    static CriLogReader.Snapshot withoutKey(CriLogReader.Snapshot snapshot, Object key) {
        List<Object> keys = new ArrayList<>(snapshot.keys());
        keys.set(keys.indexOf(key), null);
        return new CriLogReader.Snapshot(snapshot.paths(), keys);
    }

    List<String> sent() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** Reads the whole log as a following reader does once the writer has stopped. */
    List<String> read(Path file, Function<Path, CriLogReader.Snapshot> snapshots) throws Exception {
        new CriLogReader(file, new LogOptions(true, null, false, null, null, false), () -> false, snapshots)
                .copyTo(out);
        return sent();
    }

    @Test
    void theFinishedFileMissingFromOneSnapshotIsLookedForAgainNotRestartedFromTheOldest() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1, 10, () -> Instant.EPOCH)) {
            for (int i = 1; i <= 3; i++) {
                write(w, "line " + i);
            }
            Object second = keyOf(dir.resolve("0.log.2")); // holds line 2
            boolean[] missed = {false};
            boolean[] renamed = {false};
            List<String> read = read(file, current -> {
                if (!missed[0] && sent().equals(List.of("line 1", "line 2"))) {
                    // the reader finished the file with line 2 and looks for the next one while a
                    // rotation renames that file: this pass reads it without its key
                    missed[0] = true;
                    return withoutKey(CriLogReader.Snapshot.of(current), second);
                }
                if (missed[0] && !renamed[0]) {
                    renamed[0] = true;
                    write(w, "line 4"); // the rotation that pass overlapped: every file one name older
                }
                return CriLogReader.Snapshot.of(current);
            });
            assertThat(missed[0]).isTrue();
            assertThat(renamed[0]).isTrue();
            // before the reader looked again, it went back to the oldest file: line 1, line 2 twice
            assertThat(read).containsExactly("line 1", "line 2", "line 3", "line 4");
        }
    }

    @Test
    void aFinishedFileTheMaxFilesLimitDeletedMakesTheReaderGoOnWithTheNextFile() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1, 3, () -> Instant.EPOCH)) {
            write(w, "line 1");
            write(w, "line 2");
            boolean[] rotated = {false};
            List<String> read = read(file, current -> {
                if (!rotated[0] && sent().equals(List.of("line 1", "line 2"))) {
                    // while the reader finished the file with line 2, two rotations deleted that file
                    // (3 files kept): it is in no snapshot any more, however often the reader looks
                    rotated[0] = true;
                    write(w, "line 3");
                    write(w, "line 4");
                }
                return CriLogReader.Snapshot.of(current);
            });
            assertThat(rotated[0]).isTrue();
            assertThat(Files.exists(dir.resolve("0.log.3"))).isFalse();
            assertThat(read).containsExactly("line 1", "line 2", "line 3", "line 4");
        }
    }

    @Test
    void aRenameRightAfterTheReaderGaveUpOnAGoneFileDoesNotSkipToTheCurrentFile() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1, 5, () -> Instant.EPOCH)) {
            write(w, "line 1");
            write(w, "line 2");
            int[] looksAfterGone = {-1};
            List<String> read = read(file, current -> {
                if (looksAfterGone[0] < 0 && sent().equals(List.of("line 1", "line 2"))) {
                    looksAfterGone[0] = 0;
                    // the file with line 2 is deleted by the max-files limit (5 files kept)
                    for (int i = 3; i <= 6; i++) {
                        write(w, "line " + i);
                    }
                    return CriLogReader.Snapshot.of(current);
                }
                if (looksAfterGone[0] >= 0 && ++looksAfterGone[0] == CriLogReader.MAX_ATTEMPTS) {
                    // the look after which the reader takes that file as gone and opens the oldest
                    // one: a rotation between this snapshot and that open (deleting the file with
                    // line 3, renaming the rest) makes the open fail, and the reader must look again
                    CriLogReader.Snapshot stale = CriLogReader.Snapshot.of(current);
                    write(w, "line 7");
                    return stale;
                }
                return CriLogReader.Snapshot.of(current);
            });
            assertThat(looksAfterGone[0]).isGreaterThanOrEqualTo(CriLogReader.MAX_ATTEMPTS);
            // line 3 may have gone with the file the limit deleted before the reader opened it; jumping
            // to the (empty) current file lost lines 4 to 7 as well
            assertThat(read).doesNotHaveDuplicates();
            assertThat(read.stream().filter(line -> !line.equals("line 3")))
                    .containsExactly("line 1", "line 2", "line 4", "line 5", "line 6", "line 7");
        }
    }

    @Test
    void theOldestFileReadWithoutItsKeyDoesNotMakeTheReaderStartAtTheCurrentFile() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1, 10, () -> Instant.EPOCH)) {
            for (int i = 1; i <= 3; i++) {
                write(w, "line " + i);
            }
            Object oldest = keyOf(dir.resolve("0.log.3")); // holds line 1
            boolean[] renaming = {false};
            List<String> read = read(file, current -> {
                if (!renaming[0]) {
                    // the reader's first pass overlaps a rotation: the oldest file reads without its
                    // key, and the rotation then renames every file
                    renaming[0] = true;
                    CriLogReader.Snapshot during = withoutKey(CriLogReader.Snapshot.of(current), oldest);
                    write(w, "line 4");
                    return during;
                }
                return CriLogReader.Snapshot.of(current);
            });
            assertThat(renaming[0]).isTrue();
            // taken as "no file identity here", the reader started at the (empty) current file
            assertThat(read).containsExactly("line 1", "line 2", "line 3", "line 4");
        }
    }
}
