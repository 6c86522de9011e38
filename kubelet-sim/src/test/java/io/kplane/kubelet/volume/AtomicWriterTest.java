package io.kplane.kubelet.volume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubelet's {@code ..data} layout on a real file system. */
class AtomicWriterTest {
    @TempDir
    Path dir;

    private static Map<String, FileProjection> payload(Object... kv) {
        Map<String, FileProjection> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 3) {
            m.put((String) kv[i], new FileProjection(((String) kv[i + 1]).getBytes(StandardCharsets.UTF_8), (Integer)
                    kv[i + 2]));
        }
        return m;
    }

    private String[] entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void writesVersionedFilesBehindDataSymlinkAndSwitchesAtomically() throws Exception {
        assertThat(AtomicWriter.write(dir, payload("run.sh", "echo 1", 0755, "conf/app.ini", "a=1", 0400)))
                .isTrue();
        Path data = dir.resolve("..data");
        assertThat(Files.isSymbolicLink(data)).isTrue();
        String first = Files.readSymbolicLink(data).toString();
        assertThat(first).startsWith("..").matches("\\.\\.\\d{4}_\\d\\d_\\d\\d_\\d\\d_\\d\\d_\\d\\d\\..+");
        assertThat(Files.readSymbolicLink(dir.resolve("run.sh")).toString()).isEqualTo("..data/run.sh");
        assertThat(Files.readSymbolicLink(dir.resolve("conf")).toString()).isEqualTo("..data/conf");
        assertThat(Files.readString(dir.resolve("conf/app.ini"))).isEqualTo("a=1");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("run.sh"))))
                .isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("conf/app.ini"))))
                .isEqualTo("r--------");

        // same content: nothing is rewritten
        assertThat(AtomicWriter.write(dir, payload("run.sh", "echo 1", 0755, "conf/app.ini", "a=1", 0400)))
                .isFalse();
        assertThat(Files.readSymbolicLink(data).toString()).isEqualTo(first);

        // a new version: the link moves, the old directory and the dropped key go
        assertThat(AtomicWriter.write(dir, payload("run.sh", "echo 2", 0755))).isTrue();
        String second = Files.readSymbolicLink(data).toString();
        assertThat(second).isNotEqualTo(first);
        assertThat(Files.readString(dir.resolve("run.sh"))).isEqualTo("echo 2");
        assertThat(entries()).containsExactly(second, "..data", "run.sh");

        // a mode change alone is a new version too
        assertThat(AtomicWriter.write(dir, payload("run.sh", "echo 2", 0700))).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("run.sh"))))
                .isEqualTo("rwx------");
    }

    @Test
    void refusesPathsThatLeaveTheVolume() {
        assertThatThrownBy(() -> AtomicWriter.write(dir, payload("../escape", "x", 0644)))
                .hasMessageContaining("invalid path");
        assertThatThrownBy(() -> AtomicWriter.write(dir, payload("/etc/passwd", "x", 0644)))
                .hasMessageContaining("invalid path");
    }
}
