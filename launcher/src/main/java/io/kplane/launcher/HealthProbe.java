package io.kplane.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Asks a component whether it is healthy: its /healthz answers 200, or (PostgreSQL) its port accepts.
 *
 * <p>One blocking loopback connection per probe, {@code GET /healthz HTTP/1.0} and the status line read
 * back: no client object, no selector or keep-alive thread, nothing left behind between probes. The
 * launcher probes starting components every few tens of milliseconds and every component once a second
 * afterwards; {@code java.net.http.HttpClient} (used before) kept a selector thread alive for the
 * launcher's lifetime and cost measurably more CPU per probe in a C1-only JVM.
 */
final class HealthProbe {
    private static final int CONNECT_TIMEOUT_MS = 1000;
    private static final int READ_TIMEOUT_MS = 2000;

    private HealthProbe() {}

    static boolean healthy(ComponentSpec spec) {
        return probe(spec, spec.healthPath());
    }

    /** Whether the component's port accepts a connection at all (its process is up and bound it). */
    static boolean accepts(ComponentSpec spec) {
        return probe(spec, null);
    }

    /** Connects to the component's port; with a {@code path}, also asks it and wants a 200. */
    private static boolean probe(ComponentSpec spec, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", spec.healthPort()), CONNECT_TIMEOUT_MS);
            return path == null || answers200(socket, path);
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends one HTTP/1.0 GET (the server closes after answering) and reads the status line's code. */
    private static boolean answers200(Socket socket, String path) throws IOException {
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        int code = statusCode(in);
        // Read the answer to its end (the server closes after an HTTP/1.0 answer) before closing: a
        // probe that hangs up mid-answer makes the kubelet's proxy to its own endpoint log an error.
        byte[] rest = new byte[512];
        long left = 64 * 1024;
        int n;
        while (left > 0 && (n = in.read(rest)) != -1) {
            left -= n;
        }
        return code == 200;
    }

    /** The code of a status line such as {@code HTTP/1.1 200 OK}; -1 when the answer is not HTTP. */
    static int statusCode(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n' && line.length() < 128) {
            line.append((char) c);
        }
        String[] parts = line.toString().trim().split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            return -1;
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
