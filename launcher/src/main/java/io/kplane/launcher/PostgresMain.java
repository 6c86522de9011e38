package io.kplane.launcher;

import io.kplane.store.pg.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code postgres} component of the local stack: the embedded PostgreSQL server as a process of
 * its own, so the API server can be killed and restarted without taking the database with it.
 * Runs in the foreground until SIGTERM, then shuts PostgreSQL down cleanly. The local stack uses
 * {@code --prepare} only ({@link PostgresStartFile}): the server then runs without this JVM.
 */
@Command(
        name = "postgres",
        mixinStandardHelpOptions = true,
        description = "Runs the embedded PostgreSQL server in the foreground.")
public final class PostgresMain implements Callable<Integer> {
    @Option(names = "--data-dir", defaultValue = ".kplane/db", description = "Data directory (kept across restarts).")
    Path dataDir;

    @Option(names = "--port", defaultValue = "15432", description = "Port on 127.0.0.1.")
    int port;

    @Option(
            names = "--prepare",
            description = "Initialise the data directory, write the server's start script into it ("
                    + PostgresStartFile.NAME + ") and exit: deploy/bin/kplane-component then runs the server itself.")
    boolean prepare;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PostgresMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException, java.io.IOException {
        if (prepare) {
            System.out.println("PostgreSQL start script: " + PostgresStartFile.prepare(dataDir, port));
            return 0;
        }
        EmbeddedPostgresServer server =
                EmbeddedPostgresServer.start(dataDir, port, true, EmbeddedPostgresServer.SMALL_LOCAL_INSTANCE);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.stop();
                            done.countDown();
                        },
                        "postgres-shutdown"));
        System.out.println("PostgreSQL listening on 127.0.0.1:" + port + ", data in " + dataDir.toAbsolutePath());
        done.await();
        return 0;
    }
}
