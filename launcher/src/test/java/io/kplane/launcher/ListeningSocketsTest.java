package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Who listens on a port, from /proc: this JVM's own socket, another process's, nobody's. */
class ListeningSocketsTest {
    @Test
    void readsTheListeningSocketsInodeForThePort() {
        String listening =
                "   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0";
        String connected =
                "   2: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0";
        assertThat(ListeningSockets.listeningInode(listening, 8080)).isEqualTo("4242");
        assertThat(ListeningSockets.listeningInode(listening, 8081)).isNull();
        assertThat(ListeningSockets.listeningInode(connected, 8080)).isNull();
        assertThat(ListeningSockets.listeningInode(
                        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                        8080))
                .isNull();
    }

    @Test
    void tellsThisProcessFromAnother() throws Exception {
        Process other = new ProcessBuilder("sleep", "60").start();
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = held.getLocalPort();
            assertThat(ListeningSockets.owner(ProcessHandle.current(), port))
                    .isEqualTo(ListeningSockets.Owner.THIS_PROCESS);
            assertThat(ListeningSockets.owner(other.toHandle(), port))
                    .isEqualTo(ListeningSockets.Owner.ANOTHER_PROCESS);
            held.close();
            assertThat(ListeningSockets.owner(ProcessHandle.current(), port))
                    .as("nobody listens any more")
                    .isEqualTo(ListeningSockets.Owner.UNKNOWN);
        } finally {
            other.destroyForcibly();
            other.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
