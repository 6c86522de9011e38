package io.kplane.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Another server on a port: a real listening socket of this test JVM that answers every request with
 * {@code 200 OK}, as another kplane API server (or any healthy HTTP server) would. Counts the
 * connections it accepted.
 */
final class PortSquatter implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger connections = new AtomicInteger();

    PortSquatter() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::serve, "port-squatter-" + socket.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    int connections() {
        return connections.get();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                connections.incrementAndGet();
                InputStream in = s.getInputStream();
                // read the request head (up to the blank line) or whatever arrives first
                byte[] buf = new byte[4096];
                s.setSoTimeout(2000);
                try {
                    in.read(buf);
                } catch (IOException e) {
                    // a client that only connected (a port probe) sends nothing
                }
                OutputStream out = s.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // closed, or the client went away
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
