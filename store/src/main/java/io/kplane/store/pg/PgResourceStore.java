package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.store.EncodedObject;
import io.kplane.store.ListPage;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceKey;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreException;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL {@link ResourceStore}: writes go through the {@link GroupCommitWriter}, watches
 * through the {@link WatchHub}, lists through the {@link Lister}. Open one with {@link #open}.
 */
public final class PgResourceStore implements ResourceStore {
    private static final Logger LOG = LoggerFactory.getLogger(PgResourceStore.class);

    private final Vertx vertx;
    private final StoreConfig config;
    private final EmbeddedPostgresServer embedded; // null for an external server
    private final Pool readPool;
    private final GroupCommitWriter writer;
    private final WatchHub hub;
    private final RecentObjects recentObjects;
    private final Lister lister;
    private final Compactor compactor;
    private long compactionTimer = -1;

    private PgResourceStore(
            Vertx vertx, StoreConfig config, EmbeddedPostgresServer embedded, PgConnectOptions options) {
        this.vertx = vertx;
        this.config = config;
        this.embedded = embedded;
        options = new PgConnectOptions(options)
                .setPipeliningLimit(Math.max(256, config.maxBatchSize() + 4))
                .setCachePreparedStatements(true)
                .setReconnectAttempts(0);
        // TCP keepalive: a peer that vanished (a frozen network path) is noticed by the client too
        NetClientOptions net = new NetClientOptions().setConnectTimeout(5_000).setTcpKeepAlive(true);
        // Bounded waits so that requests fail fast with Unavailable while the database is down.
        PoolOptions readOptions = new PoolOptions()
                .setMaxSize(config.poolSize())
                .setMaxWaitQueueSize(10_000)
                .setConnectionTimeout(10)
                .setConnectionTimeoutUnit(TimeUnit.SECONDS);
        this.readPool = PgBuilder.pool()
                .with(readOptions)
                .with(net)
                .connectingTo(options)
                .using(vertx)
                .build();
        PgConnectOptions writerConnect = writerOptions(options, config.writerLimits());
        VertxInternal internal = (VertxInternal) vertx;
        this.recentObjects = new RecentObjects(config.recentObjects());
        this.hub = new WatchHub(
                vertx,
                readPool,
                internal.createEventLoopContext(),
                options,
                config.watchCacheSize(),
                config.safetyPollInterval(),
                recentObjects);
        long connectWait = Math.max(1, config.writerLimits().batchDeadline().toMillis());
        this.writer = new GroupCommitWriter(
                () -> PgBuilder.pool()
                        .with(new PoolOptions()
                                .setMaxSize(1)
                                .setConnectionTimeout((int) connectWait)
                                .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                        .with(net)
                        .connectingTo(writerConnect)
                        .using(vertx)
                        .build(),
                config.writerLimits(),
                internal.createEventLoopContext(),
                config.clock(),
                config.maxBatchSize(),
                config.smallBatchLimit(),
                recentObjects,
                hub);
        this.lister = new Lister(readPool);
        this.compactor = new Compactor(readPool, config.clock(), config.compactionWindow());
    }

    /**
     * Session settings of the writer's connections. Its one statement takes arrays whose length the
     * planner only learns per call, so with the default plan cache mode PostgreSQL would re-plan it
     * on every execution (a custom plan always looks cheaper than the generic one); and a plan made
     * while {@code objects} is small would scan it sequentially and keep doing so as it grows. The
     * right plan for every batch and table size is an index lookup per write, so the writer always
     * uses the generic plan and never a sequential scan (its statements only touch rows by key).
     */
    private static PgConnectOptions writerOptions(PgConnectOptions options, WriterLimits limits) {
        PgConnectOptions writer = new PgConnectOptions(options);
        writer.addProperty("plan_cache_mode", "force_generic_plan");
        writer.addProperty("enable_seqscan", "off");
        // bounds on the server side (see WriterLimits): a stuck statement or lock wait ends with an error,
        // a session whose client vanished mid-transaction is ended and its revision lock released
        writer.addProperty(
                "statement_timeout", Long.toString(limits.statementTimeout().toMillis()));
        writer.addProperty("lock_timeout", Long.toString(limits.lockTimeout().toMillis()));
        writer.addProperty(
                "idle_in_transaction_session_timeout",
                Long.toString(limits.idleInTransactionTimeout().toMillis()));
        writer.addProperty("tcp_keepalives_idle", "10");
        writer.addProperty("tcp_keepalives_interval", "5");
        writer.addProperty("tcp_keepalives_count", "3");
        return writer;
    }

    /**
     * Starts the embedded server if configured, migrates the schema, and starts the watch hub and the
     * compaction timer. The future fails if the database cannot be reached.
     */
    public static Future<PgResourceStore> open(Vertx vertx, StoreConfig config) {
        Future<EmbeddedPostgresServer> server = config.connectOptions() != null
                ? Future.succeededFuture(null)
                : vertx.executeBlocking(
                        () -> EmbeddedPostgresServer.start(config.embeddedDataDir(), config.embeddedPort()));
        return server.compose(embedded -> {
            PgConnectOptions options = embedded == null ? config.connectOptions() : embedded.connectOptions();
            PgResourceStore store = new PgResourceStore(vertx, config, embedded, options);
            return Migrator.migrate(store.readPool)
                    .compose(v -> store.hub.start())
                    .map(v -> {
                        store.startCompactionTimer();
                        LOG.info("store open on {}", PgUrls.toJdbcUrl(options));
                        return store;
                    })
                    .onFailure(err -> store.close());
        });
    }

    /** The embedded server this store started, or null when it uses an external one. */
    public EmbeddedPostgresServer embeddedServer() {
        return embedded;
    }

    private void startCompactionTimer() {
        compactionTimer = vertx.setPeriodic(config.compactionInterval().toMillis(), id -> compact()
                .onFailure(err -> LOG.warn("compaction failed: {}", PgErrors.describe(err))));
    }

    @Override
    public Future<StoredObject> create(ResourceKey key, ObjectNode object) {
        return write(p -> WriteOp.create(key, object, null, p));
    }

    @Override
    public Future<StoredObject> create(ResourceKey key, ObjectNode object, ResourceKey parent) {
        return write(p -> WriteOp.create(key, object, parent, p));
    }

    @Override
    public Future<StoredObject> createEncoded(ResourceKey key, EncodedObject object, ResourceKey parent) {
        return write(p -> WriteOp.createEncoded(key, object, parent, p));
    }

    @Override
    public Future<StoredObject> update(ResourceKey key, ObjectNode object, long expectedRevision) {
        return write(p -> WriteOp.update(key, object, expectedRevision, p));
    }

    @Override
    public Future<StoredObject> delete(ResourceKey key, long expectedRevision) {
        return write(p -> WriteOp.delete(key, expectedRevision, p));
    }

    private Future<StoredObject> write(Function<Promise<StoredObject>, WriteOp> op) {
        // The promise belongs to the caller's context, so its callbacks run there, not on the writer's.
        Promise<StoredObject> promise = ((ContextInternal) vertx.getOrCreateContext()).promise();
        writer.submit(op.apply(promise));
        return promise.future();
    }

    /** For tests: reads of the event log the watch hub started for an announcement (see {@link WatchHub}). */
    long announcedLogReads() {
        return hub.announcedReads();
    }

    @Override
    public Future<StoredObject> get(ResourceKey key) {
        // bounded like a write batch: a read on a frozen connection (e.g. the lookup a create does
        // first) must fail with 503 too, not hang the request
        return readPool.preparedQuery(Statements.GET)
                .execute(Tuple.of(key.resource(), key.namespace(), key.name()))
                .timeout(config.writerLimits().batchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                .transform(ar -> {
                    if (ar.failed()) {
                        return Future.failedFuture(PgErrors.toStoreException(ar.cause()));
                    }
                    if (ar.result().size() == 0) {
                        return Future.failedFuture(new StoreException.NotFound(key));
                    }
                    Row row = ar.result().iterator().next();
                    long revision = row.getLong(0);
                    return Future.succeededFuture(
                            new StoredObject(key, revision, ObjectCodec.decode(row.getString(1), revision)));
                });
    }

    @Override
    public Future<StoredObject> getForUpdate(ResourceKey key) {
        StoredObject recent = recentObjects.get(key);
        return recent != null ? Future.succeededFuture(recent) : get(key);
    }

    @Override
    public Future<ListPage> list(ListRequest request) {
        return lister.list(request).recover(err -> Future.failedFuture(PgErrors.toStoreException(err)));
    }

    /** The group-commit writer's batches so far (for benchmarks: is the one writer the bound?). */
    public WriterStats writerStats() {
        return writer.stats();
    }

    @Override
    public Future<Void> writerReady() {
        return writer.ready();
    }

    @Override
    public Future<Long> currentRevision() {
        return readPool.query(Statements.CURRENT_REVISION)
                .execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .recover(err -> Future.failedFuture(PgErrors.toStoreException(err)));
    }

    @Override
    public WatchHandle watch(String resource, String namespace, long fromRevision, WatchListener listener) {
        return hub.watch(resource, namespace, fromRevision, listener);
    }

    @Override
    public Future<Long> compact() {
        return compactor
                .compact()
                .onSuccess(hub::compacted)
                .recover(err -> Future.failedFuture(PgErrors.toStoreException(err)));
    }

    @Override
    public void close() {
        vertx.cancelTimer(compactionTimer);
        writer.close();
        hub.close();
        readPool.close();
        if (embedded != null) {
            embedded.stop();
        }
    }
}
