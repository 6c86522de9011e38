package io.kplane.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Picks loopback ports that are free now, each at most once per plan. A port handed out can still be
 * taken by another process before the component binds it; the component then fails to start and the
 * launcher reports it, as with a fixed port that is in use.
 */
final class FreePorts {
    private final Set<Integer> handedOut = new HashSet<>();

    /** A free port. */
    int single() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ephemeral();
            if (handedOut.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found in 100 attempts");
    }

    /** A free port whose successor is free too (a kubelet keeps port+1 for itself, as with the fixed table). */
    int pair() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ephemeral();
            if (port < 65535
                    && !handedOut.contains(port)
                    && !handedOut.contains(port + 1)
                    && FixedPorts.isFree("127.0.0.1", port + 1)) {
                handedOut.add(port);
                handedOut.add(port + 1);
                return port;
            }
        }
        throw new IllegalStateException("no pair of free ports found in 100 attempts");
    }

    private static int ephemeral() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
