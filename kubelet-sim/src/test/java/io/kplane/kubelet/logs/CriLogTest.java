package io.kplane.kubelet.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CriLogTest {
    @TempDir
    Path dir;

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    String read(Path file, LogOptions options) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CriLogReader(file, options, () -> false).copyTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesCriRecordsAndServesThemAsPlainText() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1 << 20, 3, now::get)) {
            OutputStream out = w.lineStream("stdout");
            OutputStream err = w.lineStream("stderr");
            out.write("hello\nwor".getBytes(StandardCharsets.UTF_8));
            err.write("oops\n".getBytes(StandardCharsets.UTF_8));
            out.write("ld\ntrailing".getBytes(StandardCharsets.UTF_8));
            out.close();
            err.close();
        }
        assertThat(Files.readAllLines(file))
                .containsExactly(
                        "2026-01-01T00:00:00Z stdout F hello",
                        "2026-01-01T00:00:00Z stderr F oops",
                        "2026-01-01T00:00:00Z stdout F world",
                        "2026-01-01T00:00:00Z stdout P trailing");
        assertThat(read(file, LogOptions.all())).isEqualTo("hello\noops\nworld\ntrailing");
        assertThat(read(file, new LogOptions(false, null, true, null, null, false)))
                .startsWith("2026-01-01T00:00:00Z hello\n");
        assertThat(LogFiles.lastTimestamp(file)).isEqualTo(now.get());
    }

    @Test
    void tailSinceAndLimitBytes() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 1 << 20, 3, now::get)) {
            for (int i = 1; i <= 5; i++) {
                now.set(Instant.parse("2026-01-01T00:00:0" + i + "Z"));
                byte[] line = ("line " + i).getBytes(StandardCharsets.UTF_8);
                w.write("stdout", line, 0, line.length, true);
            }
        }
        assertThat(read(file, new LogOptions(false, 2, false, null, null, false)))
                .isEqualTo("line 4\nline 5\n");
        assertThat(read(file, new LogOptions(false, null, false, Instant.parse("2026-01-01T00:00:04Z"), null, false)))
                .isEqualTo("line 4\nline 5\n");
        assertThat(read(file, new LogOptions(false, null, false, null, 9L, false)))
                .isEqualTo("line 1\nli");
        assertThat(read(file, new LogOptions(false, 0, false, null, null, false)))
                .isEmpty();
    }

    @Test
    void rotatesBySizeAndReadsRotatedFilesFirst() throws Exception {
        Path file = dir.resolve("0.log");
        try (CriLogWriter w = new CriLogWriter(file, 100, 3, now::get)) {
            for (int i = 1; i <= 12; i++) {
                byte[] line = ("line " + i).getBytes(StandardCharsets.UTF_8);
                w.write("stdout", line, 0, line.length, true);
            }
        }
        assertThat(dir.resolve("0.log.1")).exists();
        assertThat(dir.resolve("0.log.2")).exists();
        assertThat(dir.resolve("0.log.3")).doesNotExist();
        String all = read(file, LogOptions.all());
        // the oldest records went with the oldest file
        assertThat(all.lines().toList()).containsExactly("line 7", "line 8", "line 9", "line 10", "line 11", "line 12");
    }

    @Test
    void followPicksUpNewRecordsAcrossARotationUntilTheWriterCloses() throws Exception {
        Path file = dir.resolve("0.log");
        CriLogWriter w = new CriLogWriter(file, 60, 20, now::get);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try {
                new CriLogReader(file, new LogOptions(true, null, false, null, null, false), () -> !w.isClosed())
                        .copyTo(out);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        byte[] first = "follow 1".getBytes(StandardCharsets.UTF_8);
        w.write("stdout", first, 0, first.length, true);
        reader.start();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> out.toString(StandardCharsets.UTF_8).contains("follow 1"));
        for (int i = 2; i <= 10; i++) {
            byte[] line = ("follow " + i).getBytes(StandardCharsets.UTF_8);
            w.write("stdout", line, 0, line.length, true);
        }
        w.close();
        reader.join(5000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly(
                        "follow 1",
                        "follow 2",
                        "follow 3",
                        "follow 4",
                        "follow 5",
                        "follow 6",
                        "follow 7",
                        "follow 8",
                        "follow 9",
                        "follow 10");
    }

    @Test
    void followMissesNothingWhileTheWriterRotatesOnEveryRecord() throws Exception {
        // Every record rotates the file, and the writer does not wait for the reader: each of the
        // reader's steps (list files, find where it was, open the next) races a rename.
        for (int round = 0; round < 20; round++) {
            Path file = dir.resolve("race-" + round + ".log");
            CriLogWriter w = new CriLogWriter(file, 10, 60, now::get);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    new CriLogReader(file, new LogOptions(true, null, false, null, null, false), () -> !w.isClosed())
                            .copyTo(out);
                } catch (Exception | Error e) {
                    failure.set(e);
                }
            });
            reader.start();
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 50; i++) {
                byte[] line = ("r" + round + " line " + i).getBytes(StandardCharsets.UTF_8);
                w.write("stdout", line, 0, line.length, true);
                expected.add("r" + round + " line " + i);
            }
            w.close();
            reader.join(10_000);
            assertThat(reader.isAlive()).isFalse();
            assertThat(failure.get()).isNull();
            assertThat(out.toString(StandardCharsets.UTF_8).lines().toList())
                    .as("round %d", round)
                    .containsExactlyElementsOf(expected);
        }
    }
}
