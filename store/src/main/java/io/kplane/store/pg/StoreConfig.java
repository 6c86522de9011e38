package io.kplane.store.pg;

import io.vertx.pgclient.PgConnectOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How to open a {@link PgResourceStore}. Exactly one database source is used: {@code connectOptions}
 * (an external server, e.g. from {@link #external(String)}) or, when it is null, an embedded
 * PostgreSQL whose data directory is {@code embeddedDataDir} and which listens on {@code embeddedPort}.
 *
 * @param poolSize            connections for reads (the group-commit writer uses one more of its own)
 * @param compactionWindow    event-log rows older than this are removed
 * @param compactionInterval  how often the compaction timer runs
 * @param safetyPollInterval  the watch hub also polls this often, in case a NOTIFY was missed
 * @param maxBatchSize        most writes committed in one transaction by the group-commit writer
 * @param smallBatchLimit     batches of at most this many writes are applied by the per-write database function
 *                            ({@code kplane_apply_writes}), larger ones by the one-statement {@code APPLY_ROUND}
 *                            (docs/storage.md, "Small batches"); 0: always {@code APPLY_ROUND}
 * @param watchCacheSize      recent events the watch hub keeps in memory for new watchers
 * @param recentObjects       recently written objects kept as the base of the next update (0: none)
 * @param clock               time source for event timestamps and compaction (tests use a fixed one)
 * @param writerLimits        deadlines, timeouts and the queue bound of the group-commit writer
 */
public record StoreConfig(
        PgConnectOptions connectOptions,
        Path embeddedDataDir,
        int embeddedPort,
        int poolSize,
        Duration compactionWindow,
        Duration compactionInterval,
        Duration safetyPollInterval,
        int maxBatchSize,
        int smallBatchLimit,
        int watchCacheSize,
        int recentObjects,
        Clock clock,
        WriterLimits writerLimits) {

    public static final Duration DEFAULT_COMPACTION_WINDOW = Duration.ofMinutes(5);
    /** About 5-10 KiB of heap each (a parsed pod): tens of MiB at most. */
    public static final int DEFAULT_RECENT_OBJECTS = 4096;
    /** Measured: see docs/storage.md, "Small batches". */
    public static final int DEFAULT_SMALL_BATCH_LIMIT = 16;

    public StoreConfig {
        if (connectOptions == null) {
            Objects.requireNonNull(embeddedDataDir, "either connectOptions or embeddedDataDir");
        }
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(writerLimits, "writerLimits");
        if (poolSize < 1 || maxBatchSize < 1 || watchCacheSize < 1) {
            throw new IllegalArgumentException("poolSize, maxBatchSize and watchCacheSize must be positive");
        }
        if (smallBatchLimit < 0) {
            throw new IllegalArgumentException("smallBatchLimit must not be negative");
        }
    }

    /** An external server, given as {@code postgresql://user:pw@host:port/db} or a JDBC-style URL. */
    public static StoreConfig external(String url) {
        return of(PgUrls.parse(url));
    }

    public static StoreConfig of(PgConnectOptions options) {
        return new StoreConfig(
                options,
                null,
                0,
                8,
                DEFAULT_COMPACTION_WINDOW,
                Duration.ofSeconds(30),
                Duration.ofSeconds(1),
                256,
                DEFAULT_SMALL_BATCH_LIMIT,
                10_000,
                DEFAULT_RECENT_OBJECTS,
                Clock.systemUTC(),
                WriterLimits.DEFAULT);
    }

    /** An embedded PostgreSQL keeping its data in {@code dataDir} (created on first start). */
    public static StoreConfig embedded(Path dataDir, int port) {
        return new StoreConfig(
                null,
                dataDir,
                port,
                8,
                DEFAULT_COMPACTION_WINDOW,
                Duration.ofSeconds(30),
                Duration.ofSeconds(1),
                256,
                DEFAULT_SMALL_BATCH_LIMIT,
                10_000,
                DEFAULT_RECENT_OBJECTS,
                Clock.systemUTC(),
                WriterLimits.DEFAULT);
    }

    public StoreConfig withPoolSize(int value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                value,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                clock,
                writerLimits);
    }

    public StoreConfig withCompaction(Duration window, Duration interval) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                window,
                interval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                clock,
                writerLimits);
    }

    public StoreConfig withSafetyPollInterval(Duration value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                value,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                clock,
                writerLimits);
    }

    public StoreConfig withMaxBatchSize(int value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                value,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                clock,
                writerLimits);
    }

    public StoreConfig withWatchCacheSize(int value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                value,
                recentObjects,
                clock,
                writerLimits);
    }

    /** How many recently written objects to keep for updates ({@code ResourceStore.getForUpdate}); 0 disables. */
    public StoreConfig withRecentObjects(int value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                value,
                clock,
                writerLimits);
    }

    public StoreConfig withClock(Clock value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                value,
                writerLimits);
    }

    public StoreConfig withWriterLimits(WriterLimits value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                smallBatchLimit,
                watchCacheSize,
                recentObjects,
                clock,
                value);
    }

    /** Batches of at most this many writes go through the per-write database function; 0: never. */
    public StoreConfig withSmallBatchLimit(int value) {
        return new StoreConfig(
                connectOptions,
                embeddedDataDir,
                embeddedPort,
                poolSize,
                compactionWindow,
                compactionInterval,
                safetyPollInterval,
                maxBatchSize,
                value,
                watchCacheSize,
                recentObjects,
                clock,
                writerLimits);
    }
}
