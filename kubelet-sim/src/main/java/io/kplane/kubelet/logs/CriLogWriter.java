package io.kplane.kubelet.logs;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Writes one container attempt's output in the CRI log format the real kubelet reads
 * ({@code <RFC 3339 time> <stdout|stderr> <F|P> <content>}), one record per line, and rotates the
 * file by size ({@code N.log} → {@code N.log.1} → … up to {@code maxFiles - 1} old files).
 *
 * <p>Writes are synchronised because stdout and stderr are copied by different threads.
 */
public final class CriLogWriter implements AutoCloseable {
    /** Lines longer than this are split into partial ({@code P}) records, as containerd does. */
    static final int MAX_RECORD = 16 * 1024;

    private final Path path;
    private final long maxBytes;
    private final int maxFiles;
    private final Supplier<Instant> clock;
    private OutputStream out;
    private long size;
    private volatile boolean closed;
    private Instant lastTimestamp;

    public CriLogWriter(Path path, long maxBytes, int maxFiles, Supplier<Instant> clock) {
        this.path = path;
        this.maxBytes = maxBytes;
        this.maxFiles = Math.max(1, maxFiles);
        this.clock = clock;
        try {
            Files.createDirectories(path.getParent());
            this.out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            this.size = Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open container log " + path, e);
        }
        this.lastTimestamp = LogFiles.lastTimestamp(path);
    }

    public Path path() {
        return path;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Time of the last record written (also across kubelet restarts), or null. */
    public synchronized Instant lastTimestamp() {
        return lastTimestamp;
    }

    /** Writes one record stamped now; {@code complete} false marks a partial line. */
    public void write(String stream, byte[] content, int offset, int length, boolean complete) {
        write(stream, clock.get(), content, offset, length, complete);
    }

    public synchronized void write(
            String stream, Instant at, byte[] content, int offset, int length, boolean complete) {
        if (closed) {
            return;
        }
        try {
            byte[] head = (LogFiles.TIME_FORMAT.format(at) + " " + stream + (complete ? " F " : " P "))
                    .getBytes(StandardCharsets.US_ASCII);
            out.write(head);
            out.write(content, offset, length);
            out.write('\n');
            out.flush();
            size += head.length + length + 1;
            lastTimestamp = at;
            if (size >= maxBytes) {
                rotate();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write container log " + path, e);
        }
    }

    /** An output stream that turns raw bytes of one stream into records, line by line. */
    public OutputStream lineStream(String stream) {
        return new LineSplitter(this, stream);
    }

    private void rotate() throws IOException {
        out.close();
        Path oldest = LogFiles.rotated(path, maxFiles - 1);
        Files.deleteIfExists(oldest);
        for (int i = maxFiles - 2; i >= 1; i--) {
            Path from = LogFiles.rotated(path, i);
            if (Files.exists(from)) {
                Files.move(from, LogFiles.rotated(path, i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (maxFiles > 1) {
            Files.move(path, LogFiles.rotated(path, 1), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.delete(path);
        }
        out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        size = 0;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Buffers one stream's bytes until a newline (or the record limit) and writes records. */
    private static final class LineSplitter extends OutputStream {
        private final CriLogWriter writer;
        private final String stream;
        private final byte[] buffer = new byte[MAX_RECORD];
        private int length;

        LineSplitter(CriLogWriter writer, String stream) {
            this.writer = writer;
            this.stream = stream;
        }

        @Override
        public void write(int b) {
            if (b == '\n') {
                writer.write(stream, buffer, 0, length, true);
                length = 0;
                return;
            }
            buffer[length++] = (byte) b;
            if (length == buffer.length) {
                writer.write(stream, buffer, 0, length, false);
                length = 0;
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        /** A trailing line without newline is kept as a partial record, as containerd does. */
        @Override
        public void close() {
            if (length > 0) {
                writer.write(stream, buffer, 0, length, false);
                length = 0;
            }
        }
    }
}
