package io.kplane.kubelet.stream;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A streaming request's path and query: {@code /exec|/attach/{ns}/{pod}[/{uid}]/{container}} with
 * {@code command} (repeated), {@code stdin}, {@code stdout}, {@code stderr}, {@code tty}; or
 * {@code /portforward/{ns}/{pod}[/{uid}]} with {@code ports} — the kubelet's own paths.
 */
record StreamRequest(
        String kind,
        String namespace,
        String pod,
        String uid,
        String container,
        List<String> command,
        boolean stdin,
        boolean stdout,
        boolean stderr,
        boolean tty,
        List<Integer> ports) {

    static boolean isStreamPath(String path) {
        return path.startsWith("/exec/") || path.startsWith("/attach/") || path.startsWith("/portforward/");
    }

    /** Parses the request; a malformed one is an {@link IllegalArgumentException} with the 400's message. */
    static StreamRequest parse(String rawPath, String rawQuery) {
        String[] parts = rawPath.substring(1).split("/", -1);
        String kind = parts[0];
        List<String> segments = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            segments.add(decode(parts[i]));
        }
        boolean portForward = kind.equals("portforward");
        int min = portForward ? 2 : 3;
        if (segments.size() < min
                || segments.size() > min + 1
                || segments.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException(
                    portForward
                            ? "expected /portforward/{namespace}/{pod}[/{uid}]"
                            : "expected /" + kind + "/{namespace}/{pod}[/{uid}]/{container}");
        }
        String uid = segments.size() == min + 1 ? segments.get(2) : null;
        String container = portForward ? null : segments.get(segments.size() - 1);
        List<String> command = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        boolean stdin = false;
        boolean stdout = false;
        boolean stderr = false;
        boolean tty = false;
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String k = decode(eq < 0 ? pair : pair.substring(0, eq));
                String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
                switch (k) {
                    case "command" -> command.add(v);
                    case "input", "stdin" -> stdin = bool(v);
                    case "output", "stdout" -> stdout = bool(v);
                    case "error", "stderr" -> stderr = bool(v);
                    case "tty" -> tty = bool(v);
                    case "ports", "port" -> {
                        for (String p : v.split(",")) {
                            ports.add(port(p.trim()));
                        }
                    }
                    default -> {
                        // unknown parameters are ignored, as the kubelet does
                    }
                }
            }
        }
        if (!portForward) {
            if (!stdin && !stdout && !stderr) {
                throw new IllegalArgumentException("you must specify at least 1 of stdin, stdout, stderr");
            }
            if (kind.equals("exec") && command.isEmpty()) {
                throw new IllegalArgumentException("you must specify at least one command for the container");
            }
        }
        return new StreamRequest(
                kind,
                segments.get(0),
                segments.get(1),
                uid,
                container,
                command,
                stdin,
                stdout,
                stderr && !tty,
                tty,
                ports);
    }

    private static int port(String p) {
        try {
            int port = Integer.parseInt(p);
            if (port <= 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid port \"" + p + "\": must be between 1 and 65535, inclusive");
        }
    }

    private static boolean bool(String v) {
        return v.isEmpty() || v.equalsIgnoreCase("true") || v.equals("1");
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
