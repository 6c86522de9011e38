package io.kplane.launcher;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A full disk under PostgreSQL's data, for real: a small tmpfs mounted for the occasion, a tablespace
 * on it holding kplane's tables (and their indexes and TOAST), and a ballast file that fills it. A write
 * that needs a new page then fails exactly as on a full data disk (53100 disk_full, "could not extend
 * file ...: No space left on device") while PostgreSQL stays up and reads go on. The WAL stays on the
 * data directory's own disk: with {@code pg_wal} itself full PostgreSQL PANICs and restarts (the
 * kill -9 scenario's ground), which is a different fault. Needs root for {@code mount} (the fault
 * suite's CI runs as root); {@link #mount} says whether it could.
 */
final class SmallDisk implements AutoCloseable {
    private static final String TABLESPACE = "kplane_small_disk";
    private final Vertx vertx = Vertx.vertx();
    private final Pool db;
    private final Path mountPoint;
    private boolean mounted;
    private boolean moved;

    SmallDisk(int dbPort) throws IOException {
        db = PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(1))
                .connectingTo(PgConnectOptions.fromUri("postgresql://postgres@127.0.0.1:" + dbPort + "/postgres"))
                .using(vertx)
                .build();
        mountPoint = Files.createTempDirectory("kplane-small-disk");
    }

    /** Mounts a tmpfs with {@code headroomMb} MiB beyond what kplane's tables use now; false if mount failed. */
    boolean mount(long headroomMb) throws Exception {
        long used = row("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c "
                        + "WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace")
                .getLong(0);
        long sizeMb = used / (1 << 20) + headroomMb;
        Process p = new ProcessBuilder(
                        "mount", "-t", "tmpfs", "-o", "size=" + sizeMb + "m", "tmpfs", mountPoint.toString())
                .redirectErrorStream(true)
                .start();
        mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        return mounted;
    }

    /** Moves every kplane table and index onto the small disk. */
    void moveTables() throws Exception {
        Path dir = Files.createDirectory(mountPoint.resolve("tablespace"));
        sql("CREATE TABLESPACE " + TABLESPACE + " LOCATION '" + dir + "'");
        moved = true;
        sql("ALTER TABLE ALL IN TABLESPACE pg_default SET TABLESPACE " + TABLESPACE);
        sql("ALTER INDEX ALL IN TABLESPACE pg_default SET TABLESPACE " + TABLESPACE);
    }

    /** Fills the small disk with a ballast file until the filesystem says it is full. */
    void fill() throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(ballast())) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            // ENOSPC: the disk is full, which is the point
        }
    }

    /** Frees the disk (the operator's fix). */
    void free() throws IOException {
        Files.deleteIfExists(ballast());
    }

    private Path ballast() {
        return mountPoint.resolve("ballast");
    }

    private void sql(String statement) throws Exception {
        db.query(statement).execute().await(5, TimeUnit.MINUTES);
    }

    private Row row(String query) throws Exception {
        return db.query(query).execute().await(1, TimeUnit.MINUTES).iterator().next();
    }

    /** Moves the tables back, drops the tablespace and unmounts; best effort. */
    @Override
    public void close() {
        try {
            free();
            if (moved) {
                sql("ALTER TABLE ALL IN TABLESPACE " + TABLESPACE + " SET TABLESPACE pg_default");
                sql("ALTER INDEX ALL IN TABLESPACE " + TABLESPACE + " SET TABLESPACE pg_default");
                sql("DROP TABLESPACE " + TABLESPACE);
            }
        } catch (Exception e) {
            System.err.println("small disk: could not move the tables back: " + e);
        }
        try {
            db.close().await(30, TimeUnit.SECONDS);
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing anyway
        }
        if (mounted) {
            try {
                new ProcessBuilder("umount", "-l", mountPoint.toString())
                        .redirectErrorStream(true)
                        .start()
                        .waitFor(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("small disk: umount failed: " + e);
            }
        }
    }
}
