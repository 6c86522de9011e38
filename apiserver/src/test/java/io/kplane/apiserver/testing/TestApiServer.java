package io.kplane.apiserver.testing;

import io.kplane.apiserver.ApiServer;
import io.kplane.apiserver.ApiServerOptions;
import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.StoreConfig;
import io.kplane.store.testing.TestPostgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A real API server for integration tests: a fresh, empty PostgreSQL database from
 * {@link TestPostgres} and an {@link ApiServer} on a free loopback port.
 *
 * <pre>
 * try (TestApiServer api = TestApiServer.start()) {
 *     HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/pods")).build(), ...);
 * }
 * </pre>
 *
 * {@link #restart()} stops and starts the server on the same port and database (state survives);
 * {@link #stopDatabase()}/{@link #startDatabase()} simulate a database outage (this stops the JVM's
 * shared test PostgreSQL, so do not run such tests in parallel with others).
 */
public final class TestApiServer implements AutoCloseable {
    private final PgConnectOptions database;
    private final UnaryOperator<StoreConfig> storeConfig;
    private final Consumer<ApiServerOptions> serverOptions;
    private Vertx vertx;
    private PgResourceStore store;
    private ApiServer server;
    private int port;

    private TestApiServer(
            PgConnectOptions database,
            UnaryOperator<StoreConfig> storeConfig,
            Consumer<ApiServerOptions> serverOptions) {
        this.database = database;
        this.storeConfig = storeConfig;
        this.serverOptions = serverOptions;
    }

    /** A server with default options on a new database. */
    public static TestApiServer start() {
        return start(c -> c, o -> {});
    }

    /** A server with options adjusted by {@code serverOptions} (e.g. a token file or an in-flight limit). */
    public static TestApiServer start(Consumer<ApiServerOptions> serverOptions) {
        return start(c -> c, serverOptions);
    }

    /** Full control: adjust the store configuration (compaction window, clock) and the server options. */
    public static TestApiServer start(
            UnaryOperator<StoreConfig> storeConfig, Consumer<ApiServerOptions> serverOptions) {
        TestApiServer t = new TestApiServer(TestPostgres.get().newDatabase(), storeConfig, serverOptions);
        t.startServer();
        return t;
    }

    private synchronized void startServer() {
        vertx = Vertx.vertx();
        StoreConfig config = storeConfig.apply(StoreConfig.of(database).withSafetyPollInterval(Duration.ofMillis(500)));
        try {
            store = PgResourceStore.open(vertx, config).await(60, TimeUnit.SECONDS);
            ApiServerOptions options = new ApiServerOptions().port(port).bookmarkInterval(Duration.ofSeconds(1));
            serverOptions.accept(options);
            if (port != 0) {
                options.port(port);
            }
            server = ApiServer.start(vertx, store, options).await(60, TimeUnit.SECONDS);
            port = server.port();
        } catch (Exception e) {
            stop();
            throw new IllegalStateException("cannot start the test API server: " + e.getMessage(), e);
        }
    }

    /** {@code http://127.0.0.1:<port>}. Stays the same across {@link #restart()}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The running server (null while stopped). */
    public ApiServer server() {
        return server;
    }

    /** The store under the running server (null while stopped). */
    public PgResourceStore store() {
        return store;
    }

    /** The database this server keeps its objects in. */
    public PgConnectOptions database() {
        return database;
    }

    /** The database as a {@code postgresql://} URL, e.g. for an {@code ApiServerMain --db-url} process. */
    public String databaseUrl() {
        return TestPostgres.url(database);
    }

    /** Stops the server and its store, then starts both again on the same port and database. */
    public synchronized void restart() {
        stop();
        startServer();
    }

    /** Stops the server and its store; the database and its data stay. */
    public synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
        if (store != null) {
            store.close();
            store = null;
        }
        if (vertx != null) {
            try {
                vertx.close().await(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // best effort
            }
            vertx = null;
        }
    }

    /** Stops the shared test PostgreSQL server (an outage for every database in this JVM). */
    public void stopDatabase() {
        TestPostgres.get().stop();
    }

    public void startDatabase() {
        TestPostgres.get().start();
    }

    @Override
    public void close() {
        stop();
    }
}
