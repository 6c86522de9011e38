package io.kplane.kubelet.runtime;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One hijacked Docker Engine API connection ({@code POST /exec/{id}/start},
 * {@code POST /containers/{id}/attach}) on a socket of its own, as the docker CLI opens it: the request
 * asks {@code Connection: Upgrade}, {@code Upgrade: tcp}, the engine answers {@code 101 UPGRADED} (or
 * {@code 200}, older engines) and the connection then carries stdin one way and the output the other.
 *
 * <p>Why not docker-java: its hijacked start copies an {@code InputStream} into the connection and never
 * half-closes it when that stream ends, so the engine never sees the end of stdin and a command that
 * reads its input to the end ({@code kubectl cp} into a container, {@code exec -i ... -- wc -l}) waits
 * forever. Here the end of stdin is {@link SocketChannel#shutdownOutput()}, which the engine passes on
 * to the process as the close of its stdin (the docker CLI's {@code CloseWrite}).
 */
final class EngineHijack implements Closeable {
    private final SocketChannel channel;
    private final InputStream output;
    private final OutputStream stdin;

    private EngineHijack(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.output = new BufferedInputStream(new ChannelInput(channel), 32 * 1024);
        this.stdin = new ChannelOutput(channel);
    }

    /**
     * Connects to {@code dockerHost} ({@code unix:///path} or {@code tcp://host:port}), sends
     * {@code POST path} with the JSON {@code body} and reads the answer's head. A refusal (4xx/5xx) is an
     * {@link IOException} carrying the engine's message.
     */
    static EngineHijack open(String dockerHost, String path, String body) throws IOException {
        SocketChannel channel = connect(dockerHost);
        EngineHijack hijack;
        try {
            hijack = new EngineHijack(channel);
            byte[] json = body.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + path + " HTTP/1.1\r\n"
                    + "Host: docker\r\n"
                    + "User-Agent: kplane-kubelet\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Connection: Upgrade\r\n"
                    + "Upgrade: tcp\r\n"
                    + "Content-Length: " + json.length + "\r\n\r\n";
            hijack.stdin.write(head.getBytes(StandardCharsets.US_ASCII));
            hijack.stdin.write(json);
            hijack.readAnswerHead(path);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return hijack;
    }

    private static SocketChannel connect(String dockerHost) throws IOException {
        URI uri = URI.create(dockerHost);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "unix" -> {
                SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
                ch.connect(UnixDomainSocketAddress.of(uri.getPath()));
                yield ch;
            }
            case "tcp", "http" -> SocketChannel.open(new InetSocketAddress(uri.getHost(), uri.getPort()));
            default -> throw new IOException("exec needs a unix:// or tcp:// Docker host, not " + dockerHost);
        };
    }

    /** Status line and headers; the stream starts right after them. */
    private void readAnswerHead(String path) throws IOException {
        String status = readLine();
        String[] parts = status.split(" ", 3);
        int code = parts.length >= 2 ? parseCode(parts[1]) : -1;
        int contentLength = -1;
        String line;
        while (!(line = readLine()).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                contentLength = parseCode(line.substring(colon + 1).trim());
            }
        }
        if (code == 101 || code == 200) {
            return;
        }
        byte[] message = contentLength > 0 ? output.readNBytes(Math.min(contentLength, 64 * 1024)) : new byte[0];
        throw new IOException(engineMessage(new String(message, StandardCharsets.UTF_8), status, path));
    }

    /** The engine's {@code {"message": "..."}}, else the status line. */
    private static String engineMessage(String body, String status, String path) {
        int key = body.indexOf("\"message\"");
        if (key >= 0) {
            int open = body.indexOf('"', body.indexOf(':', key) + 1);
            int close = body.indexOf('"', open + 1);
            if (open > 0 && close > open) {
                return body.substring(open + 1, close);
            }
        }
        return "POST " + path + ": " + status;
    }

    private static int parseCode(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = output.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
            if (line.size() > 16 * 1024) {
                throw new IOException("the engine's answer has a header line over 16 KiB");
            }
        }
        if (b < 0 && line.size() == 0) {
            throw new IOException("the engine closed the connection before answering");
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** What the engine sends: raw with a tty, else multiplexed frames ({@link EngineFrames}). */
    InputStream output() {
        return output;
    }

    /** The process's stdin; closing it half-closes the connection, which ends the process's stdin. */
    OutputStream stdin() {
        return stdin;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * Blocking reads straight on the channel. {@code Channels.newInputStream} would hold the channel's
     * blocking lock while a read waits, and the writes of stdin need that lock too.
     */
    private static final class ChannelInput extends InputStream {
        private final SocketChannel channel;

        ChannelInput(SocketChannel channel) {
            this.channel = channel;
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
            int n;
            do {
                n = channel.read(ByteBuffer.wrap(b, off, len));
            } while (n == 0);
            return n;
        }
    }

    private static final class ChannelOutput extends OutputStream {
        private final SocketChannel channel;
        private boolean closed;

        ChannelOutput(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }

        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (channel.isOpen()) {
                channel.shutdownOutput();
            }
        }
    }
}
