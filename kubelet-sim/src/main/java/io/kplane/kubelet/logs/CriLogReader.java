package io.kplane.kubelet.logs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Serves one container attempt's CRI log as plain text, the way {@code kubectl logs} shows it:
 * rotated files first, {@code sinceTime}/{@code tailLines}/{@code limitBytes} applied, optional
 * timestamps, and with {@code follow} the stream stays open, picking up new records (also across a
 * rotation) until the container has ended and everything written has been sent.
 */
public final class CriLogReader {
    private static final Duration POLL = Duration.ofMillis(50);
    static final int MAX_ATTEMPTS = 100;

    private final Path current;
    private final LogOptions options;
    private final BooleanSupplier stillWriting;
    private final Function<Path, Snapshot> snapshots;
    private long remaining;

    public CriLogReader(Path current, LogOptions options, BooleanSupplier stillWriting) {
        this(current, options, stillWriting, Snapshot::of);
    }

    /**
     * With the directory snapshots taken by {@code snapshots} instead of {@link Snapshot#of}: the
     * seam that lets a test hand the reader the snapshot a pass overlapping a rotation can produce
     * (a file missing, or read before a rename that happens before the open), which real renames hit
     * only now and then; CriLogReaderRaceTest replays those interleavings one by one.
     */
    CriLogReader(Path current, LogOptions options, BooleanSupplier stillWriting, Function<Path, Snapshot> snapshots) {
        this.current = current;
        this.options = options;
        this.stillWriting = stillWriting;
        this.snapshots = snapshots;
        this.remaining = options.limitBytes() == null ? Long.MAX_VALUE : options.limitBytes();
    }

    /** Writes the log to {@code out}; returns when done (or when the client went away: IOException). */
    public void copyTo(OutputStream out) throws IOException, InterruptedException {
        Deque<byte[]> tail = options.tailLines() == null ? null : new ArrayDeque<>();
        ByteArrayOutputStream pendingLine = new ByteArrayOutputStream();
        // Walk the files oldest first by identity, so a rotation while we read neither skips nor
        // repeats a file; stop at the one that is the current file when we reach it.
        Source source = openOldest();
        while (source != null) {
            // asked before reading: a rotated file is complete (the writer closed it first), one
            // that is still current gets its later records from follow()
            boolean rotated = source.rotatedAway(current);
            LogFiles.Record r;
            while ((r = source.next()) != null) {
                if (!emit(r, out, tail, pendingLine)) {
                    source.close();
                    return;
                }
            }
            if (!rotated) {
                break;
            }
            Source next = nextAfter(source.fileKey);
            source.close();
            source = next;
        }
        if (tail != null) {
            for (byte[] line : tail) {
                if (!write(out, line)) {
                    closeQuietly(source);
                    return;
                }
            }
        }
        out.flush();
        if (!options.follow()) {
            closeQuietly(source);
            return;
        }
        follow(out, source);
    }

    private void follow(OutputStream out, Source source) throws IOException, InterruptedException {
        try {
            while (true) {
                boolean writing = stillWriting.getAsBoolean();
                if (source == null) {
                    source = Source.open(current);
                }
                boolean progressed = false;
                if (source != null) {
                    LogFiles.Record r;
                    while ((r = source.next()) != null) {
                        progressed = true;
                        if (!emit(r, out, null, null)) {
                            return;
                        }
                    }
                    if (source.rotatedAway(current)) {
                        // records written just before the rotation are still in the old file
                        while ((r = source.next()) != null) {
                            if (!emit(r, out, null, null)) {
                                return;
                            }
                        }
                        Object finished = source.fileKey;
                        source.close();
                        source = nextAfter(finished);
                        continue;
                    }
                }
                if (progressed) {
                    out.flush();
                }
                if (!writing) {
                    return;
                }
                Thread.sleep(POLL.toMillis());
            }
        } finally {
            closeQuietly(source);
        }
    }

    /**
     * The file written after the one with {@code fileKey} (rotation renames files, so follow them by
     * identity): the next one in oldest-first order, the oldest if that one is already gone, null if
     * it is the current file.
     */
    private Source nextAfter(Object fileKey) throws IOException {
        if (fileKey == null) {
            return Source.open(current); // no file identity on this file system: best effort
        }
        // Two budgets: looking for a file that went missing, and opening a file a rotation renamed
        // between the snapshot and the open. Shared, a file really gone (deleted by the max-files
        // limit) used the whole budget up, and the first rename race after it gave up and jumped to
        // the current file, skipping the rotated files in between.
        int missing = 0;
        int raced = 0;
        while (true) {
            Snapshot files = snapshots.apply(current);
            int i = files.keys.indexOf(fileKey);
            if (i < 0 && missing++ < MAX_ATTEMPTS) {
                // not in this snapshot: a pass that overlapped a rotation can miss a file being renamed
                // (its key read as null); starting over from the oldest file would repeat what was sent,
                // so look again, and only a file still missing after that is gone
                continue;
            }
            int next = i < 0 ? 0 : i + 1;
            if (next >= files.paths.size()) {
                return null;
            }
            Source source = Source.openIfStill(files.paths.get(next), files.keys.get(next));
            if (source != null || raced++ >= MAX_ATTEMPTS) {
                return source;
            }
            // rotated between the snapshot and the open: look again
        }
    }

    /** The oldest file of the attempt, or null when there is none yet. */
    private Source openOldest() throws IOException {
        for (int attempt = 0; ; attempt++) {
            Snapshot files = snapshots.apply(current);
            Object oldestKey = files.keys.get(0);
            // A rotated file without a key is being renamed (a pass that overlapped a rotation): look
            // again. Taken as "no file identity here", the reader started at the current file and left
            // out every rotated one. Only the current file alone may lack a key (not created yet).
            boolean renaming = oldestKey == null && files.paths.size() > 1;
            Source source = Source.openIfStill(files.paths.get(0), oldestKey);
            if (source != null || attempt >= MAX_ATTEMPTS || (oldestKey == null && !renaming)) {
                return source != null ? source : Source.open(current);
            }
        }
    }

    /**
     * The attempt's files oldest first with their identities, read until two passes agree: a
     * rotation renames every file, so a pass that overlapped one differs from the next pass, and a
     * single pass alone could see one file twice or miss one.
     */
    record Snapshot(List<Path> paths, List<Object> keys) {
        static Snapshot of(Path current) {
            Snapshot previous = read(current);
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Snapshot again = read(current);
                if (again.equals(previous)) {
                    return again;
                }
                previous = again;
                Thread.onSpinWait();
            }
            return previous;
        }

        private static Snapshot read(Path current) {
            List<Path> paths = LogFiles.filesOldestFirst(current);
            List<Object> keys = new ArrayList<>(paths.size());
            for (Path path : paths) {
                keys.add(Source.keyOf(path));
            }
            return new Snapshot(paths, keys);
        }
    }

    /** Renders a record; returns false once {@code limitBytes} is used up. */
    private boolean emit(LogFiles.Record r, OutputStream out, Deque<byte[]> tail, ByteArrayOutputStream pendingLine)
            throws IOException {
        if (options.since() != null && r.at().isBefore(options.since())) {
            return true;
        }
        byte[] rendered = render(r);
        if (tail == null) {
            return write(out, rendered);
        }
        pendingLine.write(rendered);
        if (r.complete()) {
            tail.addLast(pendingLine.toByteArray());
            pendingLine.reset();
            while (tail.size() > options.tailLines()) {
                tail.removeFirst();
            }
        }
        return true;
    }

    private byte[] render(LogFiles.Record r) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(r.content().length + 40);
        if (options.timestamps()) {
            b.writeBytes((LogFiles.TIME_FORMAT.format(r.at()) + " ").getBytes(StandardCharsets.US_ASCII));
        }
        b.writeBytes(r.content());
        if (r.complete()) {
            b.write('\n');
        }
        return b.toByteArray();
    }

    private boolean write(OutputStream out, byte[] bytes) throws IOException {
        if (remaining <= 0) {
            return false;
        }
        int n = (int) Math.min(bytes.length, remaining);
        out.write(bytes, 0, n);
        remaining -= n;
        return remaining > 0;
    }

    private static void closeQuietly(Source source) {
        if (source != null) {
            source.close();
        }
    }

    /** Reads complete records from one file, remembering where it stopped. */
    private static final class Source {
        private final RandomAccessFile file;
        private final Object fileKey;
        private final byte[] chunk = new byte[64 * 1024];
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private int chunkPos;
        private int chunkLen;

        private Source(RandomAccessFile file, Object fileKey) {
            this.file = file;
            this.fileKey = fileKey;
        }

        static Source open(Path path) throws IOException {
            try {
                Object key =
                        Files.readAttributes(path, BasicFileAttributes.class).fileKey();
                return new Source(new RandomAccessFile(path.toFile(), "r"), key);
            } catch (NoSuchFileException | java.io.FileNotFoundException e) {
                return null;
            }
        }

        /**
         * Opens {@code path} only if it is still the file with {@code expectedKey}: renames only move
         * a file to an older name, so the key read after opening proves which file the handle holds.
         */
        static Source openIfStill(Path path, Object expectedKey) throws IOException {
            if (expectedKey == null) {
                return null;
            }
            Source source = open(path);
            if (source != null && !expectedKey.equals(source.fileKey)) {
                source.close();
                return null;
            }
            if (source != null && !expectedKey.equals(keyOf(path))) {
                source.close();
                return null;
            }
            return source;
        }

        static Object keyOf(Path path) {
            try {
                return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            } catch (IOException e) {
                return null;
            }
        }

        /** The next complete record, or null at the current end of the file. */
        LogFiles.Record next() throws IOException {
            while (true) {
                if (chunkPos == chunkLen) {
                    chunkLen = file.read(chunk);
                    chunkPos = 0;
                    if (chunkLen <= 0) {
                        chunkLen = 0;
                        return null;
                    }
                }
                while (chunkPos < chunkLen) {
                    byte b = chunk[chunkPos++];
                    if (b == '\n') {
                        byte[] bytes = line.toByteArray();
                        line.reset();
                        LogFiles.Record r = LogFiles.parse(bytes, bytes.length);
                        if (r != null) {
                            return r;
                        }
                    } else {
                        line.write(b);
                    }
                }
            }
        }

        /** Whether the writer has moved on to a new file at {@code path} (this one was rotated). */
        boolean rotatedAway(Path path) {
            try {
                Object now =
                        Files.readAttributes(path, BasicFileAttributes.class).fileKey();
                return !Objects.equals(now, fileKey);
            } catch (IOException e) {
                return false;
            }
        }

        void close() {
            try {
                file.close();
            } catch (IOException ignored) {
                // nothing to do: read-only handle
            }
        }
    }
}
