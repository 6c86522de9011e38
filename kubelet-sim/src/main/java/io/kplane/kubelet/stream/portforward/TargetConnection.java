package io.kplane.kubelet.stream.portforward;

import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP connection from the kubelet to the pod's port, for one forwarded client connection (the
 * kubelet's {@code PortForward(port, stream)}). A plain blocking socket on two pump threads, because a
 * forwarded stream can half-close ({@link #finishWriting()}: the client's end of input becomes the
 * target's end of input, {@code shutdownOutput}), which Vert.x's {@code NetSocket} cannot do.
 *
 * <p>What the client sends before the connection is up is queued, so nothing is lost while it connects.
 * The reader waits for each chunk to be handed on ({@link Listener#data} returns when the frame is
 * written), so a slow client slows the target down instead of filling the kubelet's memory.
 */
final class TargetConnection {
    private static final Logger log = LoggerFactory.getLogger(TargetConnection.class);
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final byte[] END_OF_INPUT = new byte[0];
    private static final byte[] CLOSE = new byte[0];

    /** What happens on the target's side; called on pump threads. */
    interface Listener {
        /** A chunk from the target; returns when it has been handed to the client (back-pressure). */
        void data(Buffer chunk);

        /** The target ended its output (or the connection broke after it was established). */
        void ended();

        /** The connection could not be made: Go's dial error, e.g. {@code dial tcp4 127.0.0.1:80: connect: connection refused}. */
        void failed(String message);
    }

    private final BlockingQueue<byte[]> toTarget = new LinkedBlockingQueue<>();
    private final Socket socket = new Socket();
    private volatile boolean closed;

    private TargetConnection() {}

    /** Connects to the pod's {@code port} on a pump thread and starts copying; returns at once. */
    static TargetConnection open(ExecutorService pumps, PodTarget target, int port, Listener listener) {
        TargetConnection c = new TargetConnection();
        pumps.execute(() -> c.run(pumps, target, port, listener));
        return c;
    }

    /** Data from the client for the target (queued until the connection is up). */
    void write(Buffer data) {
        if (data.length() > 0) {
            toTarget.add(data.getBytes());
        }
    }

    /** The client will send nothing more: the target sees the end of its input once the queue is written. */
    void finishWriting() {
        toTarget.add(END_OF_INPUT);
    }

    /** Drops the connection (client reset the stream, or the whole forward ended). */
    void close() {
        closed = true;
        toTarget.add(CLOSE);
        closeQuietly();
    }

    private void run(ExecutorService pumps, PodTarget target, int port, Listener listener) {
        String host;
        try {
            host = target.address();
        } catch (IOException e) {
            listener.failed(e.getMessage());
            return;
        }
        try {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly();
            if (!closed) {
                listener.failed(dialError(host, port, e));
            }
            return;
        }
        if (closed) {
            closeQuietly();
            return;
        }
        pumps.execute(this::copyToTarget);
        copyFromTarget(listener);
    }

    private void copyFromTarget(Listener listener) {
        byte[] chunk = new byte[32 * 1024];
        try {
            InputStream in = socket.getInputStream();
            int n;
            while ((n = in.read(chunk)) >= 0) {
                if (n > 0) {
                    listener.data(Buffer.buffer().appendBytes(chunk, 0, n));
                }
            }
        } catch (IOException e) {
            log.debug("reading from the forwarded port ended: {}", e.getMessage());
        }
        if (!closed) {
            listener.ended();
        }
    }

    private void copyToTarget() {
        try {
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] next = toTarget.take();
                if (next == CLOSE) {
                    return;
                }
                if (next == END_OF_INPUT) {
                    socket.shutdownOutput();
                    return;
                }
                out.write(next);
                out.flush();
            }
        } catch (IOException e) {
            log.debug("writing to the forwarded port ended: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeQuietly() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** Go's {@code net.Dial} wording, which is what a kubelet's port-forward error carries. */
    static String dialError(String host, int port, IOException e) {
        String reason;
        if (e instanceof ConnectException) {
            reason = "connect: connection refused";
        } else if (e instanceof SocketTimeoutException) {
            reason = "i/o timeout";
        } else {
            reason = String.valueOf(e.getMessage());
        }
        return "dial tcp4 " + host + ":" + port + ": " + reason;
    }
}
