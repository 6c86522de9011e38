package io.kplane.apiserver.bench;

import io.kplane.store.pg.PgResourceStore;
import io.kplane.store.pg.WriterStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the server side did in a window of creates, beside the rate: the group-commit writer's
 * batches (how many, their mean size and size buckets, the share of the window with a batch in
 * flight — near 100 % the one writer is the bound) and PostgreSQL's CPU per create (every process of
 * the server: postmaster, backends, WAL writer), from {@code /proc}. Either part may be absent (the
 * store in another process; no data directory given).
 */
final class ServerProbe {
    private final PgResourceStore store;
    private final Path postgresDataDir;

    /** {@code store} and {@code postgresDataDir} may be null. */
    ServerProbe(PgResourceStore store, Path postgresDataDir) {
        this.store = store;
        this.postgresDataDir = postgresDataDir;
    }

    /** A snapshot to subtract from a later one. */
    record Snapshot(long nanos, WriterStats writer, java.util.Map<Long, Long> postgres, long jvmCpuNanos) {
        /**
         * PostgreSQL's CPU ticks from {@code earlier} to this one: per process alive now, what it used
         * since then (all of it if it started since); a process that ended meanwhile is left out (the
         * raw-INSERT slices' backends, closing as a window starts), so its CPU is not subtracted.
         */
        long postgresTicksSince(Snapshot earlier) {
            if (postgres == null || earlier.postgres == null) {
                return -1;
            }
            long ticks = 0;
            for (var e : postgres.entrySet()) {
                ticks += e.getValue() - earlier.postgres.getOrDefault(e.getKey(), 0L);
            }
            return ticks;
        }
    }

    Snapshot snapshot() {
        var os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return new Snapshot(
                System.nanoTime(), store == null ? null : store.writerStats(), postgresTicks(), os.getProcessCpuTime());
    }

    private static void describePostgres(StringBuilder out, long ticks, double perCreate) {
        if (ticks >= 0) {
            out.append(String.format(", PostgreSQL CPU %.3f ms/create", ticks * 10.0 / perCreate));
        }
    }

    /** One line on the window between the two snapshots, in which {@code creates} were answered. */
    String describe(Snapshot before, Snapshot after, double creates) {
        StringBuilder out = new StringBuilder();
        double perCreate = Math.max(1, creates);
        out.append(String.format("JVM CPU %.3f ms/create", (after.jvmCpuNanos - before.jvmCpuNanos) / 1e6 / perCreate));
        describePostgres(out, after.postgresTicksSince(before), perCreate);
        if (before.writer != null) {
            WriterStats w = after.writer.minus(before.writer);
            double wall = after.nanos - before.nanos;
            out.append(String.format(
                    ", writer: %d batches, mean %.1f writes, busy %.0f %%, %.2f ms per batch [%s]",
                    w.batches(),
                    w.batches() == 0 ? 0.0 : (double) w.writes() / w.batches(),
                    100.0 * w.busyNanos() / wall,
                    w.batches() == 0 ? 0.0 : w.busyNanos() / 1e6 / w.batches(),
                    w.sizeHistogram()));
        }
        return out.toString();
    }

    /**
     * As {@link #describe(Snapshot, Snapshot, double)} over several windows given as (start, end) pairs
     * (the API slices of a level, leaving out the raw-INSERT slices between them).
     */
    String describe(Snapshot[] pairs, double creates) {
        long nanos = 0;
        long jvm = 0;
        long pg = 0;
        WriterStats writer = null;
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            Snapshot a = pairs[i];
            Snapshot b = pairs[i + 1];
            nanos += b.nanos - a.nanos;
            jvm += b.jvmCpuNanos - a.jvmCpuNanos;
            long slice = b.postgresTicksSince(a);
            pg = pg < 0 || slice < 0 ? -1 : pg + slice;
            if (a.writer != null) {
                WriterStats w = b.writer.minus(a.writer);
                writer = writer == null ? w : w.plus(writer);
            }
        }
        WriterStats zero = writer == null ? null : writer.minus(writer);
        StringBuilder out = new StringBuilder(
                describe(new Snapshot(0, zero, null, 0), new Snapshot(nanos, writer, null, jvm), creates));
        StringBuilder postgres = new StringBuilder();
        describePostgres(postgres, pg, Math.max(1, creates));
        int comma = out.indexOf(",");
        return comma < 0
                ? out.append(postgres).toString()
                : out.insert(comma, postgres).toString();
    }

    /** utime + stime (ticks) of the postmaster and each of its children by pid, or null if unknown. */
    private java.util.Map<Long, Long> postgresTicks() {
        if (postgresDataDir == null) {
            return null;
        }
        long postmaster;
        try {
            postmaster = Long.parseLong(Files.readAllLines(postgresDataDir.resolve("postmaster.pid"))
                    .get(0)
                    .trim());
        } catch (IOException | RuntimeException e) {
            return null;
        }
        var handle = ProcessHandle.of(postmaster);
        if (handle.isEmpty()) {
            return null;
        }
        java.util.Map<Long, Long> ticks = new java.util.HashMap<>();
        ticks.put(postmaster, ticks(postmaster));
        for (ProcessHandle child : (Iterable<ProcessHandle>) handle.get().descendants()::iterator) {
            ticks.put(child.pid(), ticks(child.pid()));
        }
        return ticks;
    }

    /** utime + stime of a live process; a backend that ended meanwhile counts 0 (its CPU is lost). */
    static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
