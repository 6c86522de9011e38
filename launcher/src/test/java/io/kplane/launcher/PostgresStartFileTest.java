package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stack's PostgreSQL runs from the start script {@code PostgresMain --prepare} writes: preparing
 * initialises the data directory without starting a server, the server that script starts runs with the
 * stack's settings, and it shuts down cleanly on SIGTERM (what the launcher sends) without a JVM
 * watching it.
 */
class PostgresStartFileTest {
    @TempDir
    Path dir;

    @Test
    void theStartScriptRunsThePreparedServerWithTheStacksSettingsAndStopsCleanly() throws Exception {
        Path data = dir.resolve("db");
        Path script;
        // the stack's own port, held by another server (an API server connecting early would meet it):
        // preparing starts no server, so nothing binds or connects to it
        try (PortSquatter stacksPort = new PortSquatter()) {
            script = PostgresStartFile.prepare(data, stacksPort.port());
            assertThat(stacksPort.connections()).isZero();
        }
        assertThat(script).isEqualTo(data.toAbsolutePath().resolve(PostgresStartFile.NAME));
        assertThat(Files.readString(script))
                .contains("/bin/postgres'")
                .contains("'fsync=on'", "'synchronous_commit=on'", "'shared_buffers=16MB'")
                .doesNotContain("'-p'")
                .doesNotContain("'-F'");
        assertThat(data.resolve("PG_VERSION")).exists();
        assertThat(data.resolve("postmaster.opts"))
                .as("no server has ever run on the data directory (a postmaster writes this file at start)")
                .doesNotExist();
        assertThat(data.resolveSibling("db.initdb")).doesNotExist();

        // prepared again (a newer launcher jar): same binaries, same data directory, same script
        String first = Files.readString(script);
        long initialised = Files.getLastModifiedTime(data.resolve("PG_VERSION")).toMillis();
        assertThat(PostgresStartFile.prepare(data, new FreePorts().single())).isEqualTo(script);
        assertThat(Files.readString(script)).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(data.resolve("PG_VERSION")).toMillis())
                .isEqualTo(initialised);

        int port = new FreePorts().single(); // another port: the script takes it from its caller
        Process server = new ProcessBuilder("sh", script.toString(), "-p", String.valueOf(port))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile())
                .start();
        Vertx vertx = Vertx.vertx();
        try {
            Pool pool = PgBuilder.pool()
                    .connectingTo(new PgConnectOptions()
                            .setHost("127.0.0.1")
                            .setPort(port)
                            .setUser("postgres")
                            .setPassword("postgres")
                            .setDatabase("postgres"))
                    .using(vertx)
                    .build();
            String sharedBuffers = await("the server answers")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(
                            () -> pool.query("show shared_buffers")
                                    .execute()
                                    .toCompletionStage()
                                    .toCompletableFuture()
                                    .get(10, TimeUnit.SECONDS)
                                    .iterator()
                                    .next()
                                    .getString(0),
                            v -> v != null);
            assertThat(sharedBuffers).isEqualTo("16MB"); // EmbeddedPostgresServer.SMALL_LOCAL_INSTANCE
            assertThat(server.pid())
                    .as("the supervised process is the postmaster itself")
                    .isEqualTo(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid"))
                            .get(0)
                            .trim()));
            pool.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

            server.destroy(); // SIGTERM: smart shutdown, no client is left
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(data.resolve("postmaster.pid"))
                    .as("a clean shutdown removes the lock file")
                    .doesNotExist();
            assertThat(Files.readAllLines(dir.resolve("server.log")))
                    .anyMatch(l -> l.contains("database system is shut down"));
        } finally {
            server.destroyForcibly();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            for (ProcessHandle child : List.copyOf(server.descendants().toList())) {
                child.destroyForcibly();
            }
        }
    }
}
