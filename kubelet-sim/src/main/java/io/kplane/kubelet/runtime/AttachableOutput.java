package io.kplane.kubelet.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One output stream of a host-process container (stdout or stderr) on its way to the container log,
 * copied as well to every {@code attach} listening at the moment: an attach sees what the container
 * writes from then on, nothing from before (as Kubernetes: the runtime does not replay output).
 *
 * <p>The container is never slowed down by a listener: each has a bounded queue, and a listener that
 * falls {@value #QUEUE_CHUNKS} chunks behind is cut off (its stream ends), as a slow attach must not
 * stall the log.
 */
final class AttachableOutput {
    static final int QUEUE_CHUNKS = 1024;
    private static final byte[] END = new byte[0];

    private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();
    private volatile boolean ended;

    /** {@code sink} (the log) with every chunk also handed to the listeners. */
    OutputStream tee(OutputStream sink) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                sink.write(b, off, len);
                if (len > 0 && !listeners.isEmpty()) {
                    byte[] chunk = Arrays.copyOfRange(b, off, off + len);
                    listeners.forEach(l -> l.offer(chunk));
                }
            }

            @Override
            public void flush() throws IOException {
                sink.flush();
            }

            @Override
            public void close() throws IOException {
                sink.close();
            }
        };
    }

    /** The container's stream has ended: every listener reads to its end. */
    void end() {
        ended = true;
        listeners.forEach(Listener::end);
    }

    /** A new listener: what the container writes from now on, until it ends or the listener is closed. */
    InputStream listen() {
        Listener l = new Listener();
        listeners.add(l);
        if (ended) {
            l.end();
        }
        return l;
    }

    private final class Listener extends InputStream {
        private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE_CHUNKS + 1);
        private byte[] current = new byte[0];
        private int pos;
        private boolean done;

        void offer(byte[] chunk) {
            if (queue.remainingCapacity() <= 1) {
                end(); // too far behind: cut off rather than hold the container's output
                return;
            }
            queue.offer(chunk);
        }

        void end() {
            listeners.remove(this);
            queue.offer(END);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (pos >= current.length) {
                if (done) {
                    return -1;
                }
                try {
                    current = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
                pos = 0;
                if (current == END) {
                    done = true;
                    return -1;
                }
            }
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public void close() {
            end();
        }
    }
}
