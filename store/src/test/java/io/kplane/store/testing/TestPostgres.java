package io.kplane.store.testing;

import io.kplane.store.pg.EmbeddedPostgresServer;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real PostgreSQL server per JVM for tests, chosen once: a Testcontainers container when
 * Testcontainers is on the classpath and a Docker engine is reachable, else the embedded server (a
 * temporary data directory, removed at JVM exit). {@link #newDatabase()} gives each test class its own
 * empty database. {@link #stop()} and {@link #start()} simulate an outage: the server comes back on
 * the same address with the same data. Tests must not care which kind of server they got.
 *
 * <p>Usage from other modules: depend on {@code kplane-store} with {@code <type>test-jar</type>} in
 * test scope and call {@code TestPostgres.get().newDatabase()}.
 */
public final class TestPostgres {
    private static final Logger LOG = LoggerFactory.getLogger(TestPostgres.class);
    private static TestPostgres instance;

    /** What runs the server. */
    interface Backend {
        PgConnectOptions options(String database);

        void stop();

        void start();

        String describe();
    }

    private final Backend backend;
    private final AtomicInteger databases = new AtomicInteger();

    private TestPostgres(Backend backend) {
        this.backend = backend;
    }

    public static synchronized TestPostgres get() {
        if (instance == null) {
            Backend backend = ContainerSupport.tryStart();
            if (backend == null) {
                backend = new EmbeddedBackend();
            }
            LOG.info("test PostgreSQL: {}", backend.describe());
            instance = new TestPostgres(backend);
        }
        return instance;
    }

    /** Creates a fresh, empty database and returns how to connect to it. */
    public PgConnectOptions newDatabase() {
        String name = "test_" + ProcessHandle.current().pid() + "_" + databases.incrementAndGet();
        PgConnectOptions admin = backend.options("postgres");
        try (Connection c = DriverManager.getConnection(jdbcUrl(admin), admin.getUser(), admin.getPassword());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return backend.options(name);
    }

    /** The same database as a {@code postgresql://} URL (for components configured by URL). */
    public static String url(PgConnectOptions o) {
        return "postgresql://" + o.getUser() + ":" + o.getPassword() + "@" + o.getHost() + ":" + o.getPort() + "/"
                + o.getDatabase();
    }

    public static String jdbcUrl(PgConnectOptions o) {
        return "jdbc:postgresql://" + o.getHost() + ":" + o.getPort() + "/" + o.getDatabase();
    }

    /** Stops the server (an outage); {@link #start()} brings it back with the same address and data. */
    public synchronized void stop() {
        backend.stop();
    }

    public synchronized void start() {
        backend.start();
    }

    public String describe() {
        return backend.describe();
    }

    /** The embedded server in a temporary directory on a fixed free port. */
    private static final class EmbeddedBackend implements Backend {
        private final Path dataDir;
        private final EmbeddedPostgresServer server;

        EmbeddedBackend() {
            try {
                dataDir = Files.createTempDirectory("kplane-test-pg");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = EmbeddedPostgresServer.start(dataDir, freePort(), false); // tests need no crash durability
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                server.stop();
                                deleteRecursively(dataDir);
                            },
                            "test-postgres-cleanup"));
        }

        @Override
        public PgConnectOptions options(String database) {
            return server.connectOptions(database);
        }

        @Override
        public void stop() {
            server.stop();
        }

        @Override
        public void start() {
            server.start();
        }

        @Override
        public String describe() {
            return "embedded PostgreSQL on port " + server.port() + " in " + dataDir;
        }
    }

    /** A currently free local port (for tests that start their own server). */
    public static int freePortForTests() {
        return freePort();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Best effort at JVM exit. The server may still be removing its own files (postmaster.pid) while
     * the walk runs, which makes the walk fail on a vanished file: walk again, a few times.
     */
    private static void deleteRecursively(Path dir) {
        for (int attempt = 0; attempt < 5 && Files.exists(dir); attempt++) {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | java.io.UncheckedIOException ignored) {
                // a file vanished under the walk: the next attempt sees the rest
            }
        }
    }
}
