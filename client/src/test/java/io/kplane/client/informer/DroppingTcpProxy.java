package io.kplane.client.informer;

import io.kplane.api.util.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to {@code 127.0.0.1:targetPort} that can silently drop its current connections: after
 * {@link #blackholeExisting()} it keeps them open but forwards nothing in either direction (bytes are
 * read and discarded), as a NAT box or firewall that forgot a connection does. New connections are
 * forwarded normally.
 */
final class DroppingTcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    DroppingTcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = DaemonThreads.newThread("proxy-accept", this::accept);
        acceptor.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on the connections open at this moment carry nothing (but stay open). */
    void blackholeExisting() {
        connections.forEach(c -> c.blackholed = true);
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
                Connection c = new Connection(client, upstream);
                connections.add(c);
                pump(c, client.getInputStream(), upstream.getOutputStream());
                pump(c, upstream.getInputStream(), client.getOutputStream());
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private static void pump(Connection c, InputStream in, OutputStream out) {
        Thread t = DaemonThreads.newThread("proxy-pump", () -> {
            byte[] buffer = new byte[16384];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (!c.blackholed) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException ignored) {
                // either side closed
            } finally {
                if (!c.blackholed) {
                    c.close();
                }
            }
        });
        t.start();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        connections.forEach(Connection::close);
    }

    private static final class Connection {
        final Socket client;
        final Socket upstream;
        volatile boolean blackholed;

        Connection(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void close() {
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                upstream.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
