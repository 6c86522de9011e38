package io.kplane.store.testing;

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
 * A TCP proxy to {@code host:port} whose network path can be frozen: while {@link #freeze() frozen} no
 * byte moves in either direction and new connections are accepted but not connected onward, as when
 * a link or a firewall silently drops packets. Nothing is closed, so neither side sees an error;
 * {@link #thaw()} lets everything flow again.
 */
public final class FreezableTcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String host;
    private final int port;
    private final Object gate = new Object();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;
    private volatile boolean closed;

    public FreezableTcpProxy(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        Thread acceptor = DaemonThreads.newThread("frozen-proxy-accept", this::accept);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public void freeze() {
        frozen = true;
    }

    public void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
    }

    private void awaitThawed() throws InterruptedException {
        synchronized (gate) {
            while (frozen && !closed) {
                gate.wait(100);
            }
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread t = DaemonThreads.newThread("frozen-proxy-connect", () -> connect(client));
                t.start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void connect(Socket client) {
        try {
            awaitThawed();
            Socket upstream = new Socket();
            upstream.connect(new InetSocketAddress(host, port));
            sockets.add(upstream);
            pump(client.getInputStream(), upstream.getOutputStream(), client, upstream);
            pump(upstream.getInputStream(), client.getOutputStream(), upstream, client);
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
        }
    }

    private void pump(InputStream in, OutputStream out, Socket from, Socket to) {
        Thread t = DaemonThreads.newThread("frozen-proxy-pump", () -> {
            byte[] buffer = new byte[16384];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitThawed();
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException ignored) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        thaw();
        server.close();
        sockets.forEach(FreezableTcpProxy::closeQuietly);
    }
}
