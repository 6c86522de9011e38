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
 * The stack's PostgreSQL runs from the start script {@code PostgresMain --prepare} writes: the server
 * that script starts is the one zonky initialised, with the stack's settings, and it shuts down
 * cleanly on SIGTERM (what the launcher sends) without a JVM watching it.
 */
class PostgresStartFileTest {
    @TempDir
    Path dir;

    @Test
    void theStartScriptRunsThePreparedServerWithTheStacksSettingsAndStopsCleanly() throws Exception {
        Path data = dir.resolve("db");
        Path script = PostgresStartFile.prepare(data, new FreePorts().single());
        assertThat(script).isEqualTo(data.toAbsolutePath().resolve(PostgresStartFile.NAME));
        assertThat(Files.readString(script)).contains("/bin/postgres'").doesNotContain("'-p'");
        assertThat(data.resolve("postmaster.pid"))
                .as("prepare leaves the server stopped")
                .doesNotExist();

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
