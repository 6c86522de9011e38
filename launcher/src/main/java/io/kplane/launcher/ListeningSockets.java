package io.kplane.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which process listens on a TCP port, read from Linux's {@code /proc}: the listening sockets of
 * {@code /proc/net/tcp} and {@code tcp6} (state {@code 0A}) with their inode, and the
 * {@code socket:[inode]} links among a process's {@code /proc/PID/fd}.
 *
 * <p>Why: the launcher's readiness probe is a connection to a component's port, and a port answers
 * whoever listens on it. A component whose port another process holds cannot bind it, yet the probe
 * would reach the other process and call the component healthy; so before the launcher believes a
 * component's first healthy answer it checks that the listener is that component's process (or one of
 * its descendants). Where {@code /proc} cannot tell (not Linux, another network namespace, a process
 * whose descriptors cannot be read) the answer is {@link Owner#UNKNOWN} and the probe is believed, as
 * before; {@link FixedPorts} has already refused ports in use before the start.
 */
final class ListeningSockets {
    enum Owner {
        /** The process or one of its descendants holds a listening socket on the port. */
        THIS_PROCESS,
        /** Sockets listen on the port and none is the process's (nor its descendants'). */
        ANOTHER_PROCESS,
        /** {@code /proc} does not say. */
        UNKNOWN
    }

    private static final Path PROC = Path.of("/proc");
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /** Who listens on {@code port}, as seen from this process's network namespace. */
    static Owner owner(ProcessHandle process, int port) {
        return owner(PROC, process, port);
    }

    static Owner owner(Path proc, ProcessHandle process, int port) {
        Set<String> inodes = new HashSet<>();
        boolean readable = false;
        for (String table : List.of("tcp", "tcp6")) {
            Path file = proc.resolve("net").resolve(table);
            try {
                for (String line : Files.readAllLines(file)) {
                    String inode = listeningInode(line, port);
                    if (inode != null) {
                        inodes.add(inode);
                    }
                }
                readable = true;
            } catch (IOException e) {
                // no such table (IPv6 off, not Linux): the other one may still say
            }
        }
        if (!readable || inodes.isEmpty()) {
            return Owner.UNKNOWN; // e.g. a listener in another network namespace, which the probe still reached
        }
        boolean anyReadable = false;
        List<ProcessHandle> candidates =
                Stream.concat(Stream.of(process), process.descendants()).toList();
        for (ProcessHandle p : candidates) {
            Path fds = proc.resolve(Long.toString(p.pid())).resolve("fd");
            try (DirectoryStream<Path> links = Files.newDirectoryStream(fds)) {
                anyReadable = true;
                for (Path link : links) {
                    String target = readLink(link);
                    if (target != null
                            && target.startsWith("socket:[")
                            && inodes.contains(target.substring(8, target.length() - 1))) {
                        return Owner.THIS_PROCESS;
                    }
                }
            } catch (IOException | SecurityException e) {
                // gone meanwhile, or not ours to read
            }
        }
        return anyReadable ? Owner.ANOTHER_PROCESS : Owner.UNKNOWN;
    }

    /**
     * The inode of a {@code /proc/net/tcp} line when it is a listening socket on {@code port}:
     * {@code sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...}, the local
     * address as {@code HEXADDR:HEXPORT}.
     */
    static String listeningInode(String line, int port) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !f[3].equals(LISTEN)) {
            return null;
        }
        int colon = f[1].lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        String hexPort = f[1].substring(colon + 1);
        if (!hexPort.equalsIgnoreCase(String.format(Locale.ROOT, "%04X", port))) {
            return null;
        }
        return f[9];
    }

    private static String readLink(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
