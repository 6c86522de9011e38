package io.kplane.kubelet.logs;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where container logs live and how their records look. Layout, as the real kubelet's
 * {@code /var/log/pods}: {@code <root>/logs/<namespace>_<pod>_<uid>/<container>/<restartCount>.log}.
 */
public final class LogFiles {
    /** RFC 3339 with nanoseconds, trailing zeros trimmed (Go's RFC3339Nano). */
    public static final DateTimeFormatter TIME_FORMAT = DateTimeFormatter.ISO_INSTANT;

    private LogFiles() {}

    public static Path podDir(Path root, String namespace, String pod, String uid) {
        return root.resolve("logs").resolve(namespace + "_" + pod + "_" + uid);
    }

    public static Path containerLog(
            Path root, String namespace, String pod, String uid, String container, int restartCount) {
        return podDir(root, namespace, pod, uid).resolve(container).resolve(restartCount + ".log");
    }

    static Path rotated(Path current, int index) {
        return current.resolveSibling(current.getFileName() + "." + index);
    }

    /** The files holding one attempt's log, oldest first (rotated ones, then the current one). */
    static List<Path> filesOldestFirst(Path current) {
        List<Path> files = new ArrayList<>();
        for (int i = 64; i >= 1; i--) {
            Path p = rotated(current, i);
            if (Files.exists(p)) {
                files.add(p);
            }
        }
        files.add(current);
        return files;
    }

    /** A parsed record; {@code null} for a malformed line. */
    static Record parse(byte[] line, int length) {
        int firstSpace = indexOf(line, 0, length, (byte) ' ');
        if (firstSpace < 0) {
            return null;
        }
        int secondSpace = indexOf(line, firstSpace + 1, length, (byte) ' ');
        if (secondSpace < 0 || secondSpace + 2 > length) {
            return null;
        }
        try {
            Instant at = Instant.parse(new String(line, 0, firstSpace, StandardCharsets.US_ASCII));
            String stream = new String(line, firstSpace + 1, secondSpace - firstSpace - 1, StandardCharsets.US_ASCII);
            boolean complete = line[secondSpace + 1] == 'F';
            int contentStart = Math.min(length, secondSpace + 3);
            byte[] content = new byte[length - contentStart];
            System.arraycopy(line, contentStart, content, 0, content.length);
            return new Record(at, stream, complete, content);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static int indexOf(byte[] b, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The time of the last record in a log file (null when empty or absent). */
    static Instant lastTimestamp(Path path) {
        if (!Files.exists(path)) {
            return null;
        }
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "r")) {
            long len = file.length();
            long start = Math.max(0, len - 64 * 1024);
            byte[] tail = new byte[(int) (len - start)];
            file.seek(start);
            file.readFully(tail);
            int end = tail.length;
            while (end > 0 && tail[end - 1] == '\n') {
                end--;
            }
            int begin = end;
            while (begin > 0 && tail[begin - 1] != '\n') {
                begin--;
            }
            byte[] line = new byte[end - begin];
            System.arraycopy(tail, begin, line, 0, line.length);
            Record r = parse(line, line.length);
            return r == null ? null : r.at();
        } catch (IOException e) {
            return null;
        }
    }

    record Record(Instant at, String stream, boolean complete, byte[] content) {}
}
