package io.kplane.store.pg;

import io.kplane.store.StoreException;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads each new event-log row once per store instance and fans it out to this instance's watchers.
 *
 * <p>This instance's own writes arrive from its writer in memory ({@link #committed}); other instances'
 * are read from the log when LISTEN/NOTIFY announces them (the writer NOTIFYs in its transaction, so
 * the notification arrives after COMMIT) or at a slow safety poll. Because revisions become
 * visible strictly in order (see {@link GroupCommitWriter}), reading "revision &gt; lastRevision"
 * never skips a row. A bounded cache of recent events serves new watchers; older start revisions are
 * caught up from the database first. All state is confined to the hub's Vert.x context.
 */
final class WatchHub implements GroupCommitWriter.BatchListener {
    private static final Logger LOG = LoggerFactory.getLogger(WatchHub.class);
    private static final int READ_PAGE = 1000;
    private static final int CATCH_UP_PAGE = 500;
    private static final long RETRY_MS = 500;

    private final Vertx vertx;
    private final Pool pool;
    private final Context context;
    private final PgConnectOptions connectOptions;
    private final int cacheSize;
    private final Duration safetyPoll;
    private final RecentObjects recentObjects;

    private final ArrayDeque<EventRows.LoggedEvent> cache = new ArrayDeque<>();
    private final Set<Watcher> watchers = new LinkedHashSet<>();
    /** Every event up to here has been read and offered to live watchers. */
    private long lastRevision;
    /** The cache holds every event in (cacheStart, lastRevision]. */
    private long cacheStart;

    private long knownCompacted;
    private boolean reading;
    /** Highest revision announced (NOTIFY, own writer) since the current read started. */
    private long announced;
    /**
     * This instance's writer has a batch in flight. Its NOTIFY often arrives before its outcome
     * (the listening connection and the writer's are answered independently); reading the log for
     * it would fetch and then skip rows the writer is about to hand over. So an announcement waits
     * until the batch settles and is read only if it is still ahead then (another instance wrote,
     * or the batch failed): at most one batch later than at once.
     */
    private boolean ownBatchInFlight;
    /**
     * Reads of the log started for the announcement of a revision (a NOTIFY, a batch written in
     * between), not the safety poll's nor the catch-all one when LISTEN (re)connects: for tests.
     */
    private final AtomicLong announcedReads = new AtomicLong();

    private boolean healthy = true;
    private long timerId = -1;
    private PgSubscriber subscriber;
    private volatile boolean closed;

    WatchHub(
            Vertx vertx,
            Pool pool,
            Context context,
            PgConnectOptions connectOptions,
            int cacheSize,
            Duration safetyPoll,
            RecentObjects recentObjects) {
        this.vertx = vertx;
        this.pool = pool;
        this.context = context;
        this.connectOptions = connectOptions;
        this.cacheSize = cacheSize;
        this.safetyPoll = safetyPoll;
        this.recentObjects = recentObjects;
    }

    /** Starts from the current revision: the hub serves events committed from now on. */
    Future<Void> start() {
        return onContext(
                () -> pool.query("SELECT (" + Statements.CURRENT_REVISION + "), (" + Statements.COMPACTED + ")")
                        .execute()
                        .map(rows -> {
                            Row row = rows.iterator().next();
                            lastRevision = row.getLong(0);
                            cacheStart = lastRevision;
                            knownCompacted = row.getLong(1);
                            timerId = vertx.setPeriodic(safetyPoll.toMillis(), id -> tick());
                            subscribe();
                            LOG.info("watch hub started at revision {}", lastRevision);
                            return null;
                        }));
    }

    void close() {
        closed = true;
        context.runOnContext(v -> {
            vertx.cancelTimer(timerId);
            if (subscriber != null) {
                subscriber.close();
            }
            for (Watcher w : new ArrayList<>(watchers)) {
                w.fail(new StoreException.Unavailable("store is closed", null));
            }
        });
    }

    /** A write up to {@code revision} was committed (by this instance or, via NOTIFY, another). */
    void poke(long revision) {
        context.runOnContext(v -> readUpTo(revision));
    }

    /** Reads the log if {@code revision} is not delivered yet. Only on the hub's context. */
    private void readUpTo(long revision) {
        if (revision > lastRevision) {
            announced = Math.max(announced, revision);
            if (!ownBatchInFlight) {
                readAnnounced();
            }
        }
    }

    private void readAnnounced() {
        if (!reading && announced != Long.MAX_VALUE) {
            announcedReads.incrementAndGet();
        }
        read(); // if a read is in flight, it re-reads afterwards only if still behind
    }

    @Override
    public void batchSent() {
        context.runOnContext(v -> ownBatchInFlight = true);
    }

    @Override
    public void batchSettled(GroupCommitWriter.CommittedBatch batch) {
        context.runOnContext(v -> {
            ownBatchInFlight = false;
            if (closed) {
                return;
            }
            if (batch != null && !batch.events().isEmpty()) {
                deliverCommitted(batch);
            }
            if (announced > lastRevision) {
                readAnnounced();
            }
        });
    }

    @Override
    public void committedLate(GroupCommitWriter.CommittedBatch batch) {
        committed(batch);
    }

    /**
     * This instance's writer committed a batch. When it directly follows what the hub has delivered
     * (the usual case with one API server), its events are fanned out from memory: no read of the
     * event log, no parse of rows. Otherwise another instance wrote in between, and the hub reads the
     * log from where it is, which includes this batch.
     */
    private void committed(GroupCommitWriter.CommittedBatch batch) {
        context.runOnContext(v -> {
            if (closed || batch.events().isEmpty()) {
                return;
            }
            deliverCommitted(batch);
        });
    }

    private void deliverCommitted(GroupCommitWriter.CommittedBatch batch) {
        if (batch.previousRevision() != lastRevision) {
            readUpTo(batch.lastRevision());
            return;
        }
        for (EventRows.LoggedEvent event : batch.events()) {
            deliver(event);
        }
    }

    void compacted(long revision) {
        context.runOnContext(v -> knownCompacted = Math.max(knownCompacted, revision));
    }

    WatchHandle watch(String resource, String namespace, long fromRevision, WatchListener listener) {
        Watcher watcher = new Watcher(
                resource, namespace, fromRevision, listener, w -> context.runOnContext(v -> watchers.remove(w)));
        context.runOnContext(v -> register(watcher));
        return watcher;
    }

    private void register(Watcher w) {
        if (w.closed()) {
            return;
        }
        if (closed) {
            w.fail(new StoreException.Unavailable("store is closed", null));
            return;
        }
        if (w.fromRevision < knownCompacted) {
            w.fail(new StoreException.Expired(w.fromRevision, knownCompacted));
            return;
        }
        watchers.add(w);
        if (w.fromRevision >= cacheStart) {
            goLive(w);
        } else {
            catchUp(w);
        }
    }

    /** Replays the cached events above the watcher's position, then it receives events as they are read. */
    private void goLive(Watcher w) {
        for (EventRows.LoggedEvent e : cache) {
            w.offer(e);
        }
        w.live = true;
    }

    /** Reads the watcher's events from the database up to what the hub has read, page by page. */
    private void catchUp(Watcher w) {
        if (w.closed()) {
            return;
        }
        long upper = lastRevision;
        Tuple params = Tuple.of(w.sentUpTo, upper, CATCH_UP_PAGE, w.resource, w.namespace == null ? "" : w.namespace);
        pool.preparedQuery(Statements.RESOURCE_EVENTS_BETWEEN).execute(params).onComplete(ar -> {
            if (w.closed()) {
                return;
            }
            if (ar.failed()) {
                LOG.warn(
                        "watch catch-up of {} from {} failed, retrying: {}",
                        w.resource,
                        w.sentUpTo,
                        PgErrors.describe(ar.cause()));
                vertx.setTimer(RETRY_MS, id -> context.runOnContext(v -> catchUp(w)));
                return;
            }
            int events = 0;
            for (Row row : ar.result()) {
                long compacted = EventRows.compacted(row);
                if (compacted > w.sentUpTo) {
                    knownCompacted = Math.max(knownCompacted, compacted);
                    w.fail(new StoreException.Expired(w.fromRevision, compacted));
                    return;
                }
                if (EventRows.hasEvent(row)) {
                    events++;
                    w.offer(EventRows.read(row));
                }
            }
            if (events < CATCH_UP_PAGE) {
                w.sentUpTo = Math.max(w.sentUpTo, upper);
            }
            if (w.sentUpTo >= cacheStart) {
                goLive(w);
            } else {
                catchUp(w);
            }
        });
    }

    private void tick() {
        read();
        for (Watcher w : watchers) {
            if (w.live) {
                w.progress(lastRevision);
            }
        }
    }

    private void read() {
        if (closed || reading) {
            return;
        }
        reading = true;
        announced = 0;
        pool.preparedQuery(Statements.EVENTS_AFTER)
                .execute(Tuple.of(lastRevision, READ_PAGE))
                .onComplete(ar -> {
                    reading = false;
                    if (ar.failed()) {
                        if (healthy) {
                            LOG.warn(
                                    "watch hub cannot read events after {}: {}",
                                    lastRevision,
                                    PgErrors.describe(ar.cause()));
                            healthy = false;
                        }
                        return; // the safety poll or the next NOTIFY retries from lastRevision
                    }
                    if (!healthy) {
                        LOG.info("watch hub reading events again after {}", lastRevision);
                        healthy = true;
                    }
                    int events = apply(ar.result());
                    if (events == READ_PAGE || announced > lastRevision) {
                        read();
                    }
                });
    }

    private int apply(RowSet<Row> rows) {
        int events = 0;
        for (Row row : rows) {
            long compacted = EventRows.compacted(row);
            knownCompacted = Math.max(knownCompacted, compacted);
            if (compacted > lastRevision) {
                fellBehindCompaction(compacted);
            }
            if (!EventRows.hasEvent(row)) {
                continue;
            }
            EventRows.LoggedEvent event = EventRows.read(row);
            events++;
            if (event.revision <= lastRevision) {
                continue; // delivered meanwhile from this instance's writer (see committed)
            }
            recentObjects.changed(event.key, event.revision); // a no-op for this instance's own writes
            deliver(event);
        }
        return events;
    }

    private void deliver(EventRows.LoggedEvent event) {
        remember(event);
        lastRevision = event.revision;
        for (Watcher w : watchers) {
            if (w.live) {
                w.offer(event);
            }
        }
    }

    /** The hub was away (database outage) longer than the compaction window: its watchers lost events. */
    private void fellBehindCompaction(long compacted) {
        LOG.warn(
                "watch hub fell behind compaction ({} < {}); ending {} watches",
                lastRevision,
                compacted,
                watchers.size());
        for (Watcher w : new ArrayList<>(watchers)) {
            w.fail(new StoreException.Expired(w.sentUpTo, compacted));
        }
        cache.clear();
        lastRevision = compacted;
        cacheStart = compacted;
    }

    private void remember(EventRows.LoggedEvent event) {
        cache.addLast(event);
        if (cache.size() > cacheSize) {
            cacheStart = cache.removeFirst().revision;
        }
    }

    private void subscribe() {
        subscriber = PgSubscriber.subscriber(vertx, connectOptions).reconnectPolicy(retries -> closed ? -1L : RETRY_MS);
        subscriber
                .channel(Statements.NOTIFY_CHANNEL)
                .handler(payload -> poke(parseRevision(payload)))
                .subscribeHandler(v -> poke(Long.MAX_VALUE));
        connectSubscriber();
    }

    private void connectSubscriber() {
        if (closed) {
            return;
        }
        subscriber.connect().onFailure(err -> {
            LOG.warn("cannot LISTEN for new events (retrying): {}", PgErrors.describe(err));
            vertx.setTimer(RETRY_MS * 2, id -> context.runOnContext(v -> connectSubscriber()));
        });
        subscriber.closeHandler(v -> {
            // The reconnect policy gave up (or the store is closing): start over unless closed.
            if (!closed) {
                vertx.setTimer(RETRY_MS * 2, id -> context.runOnContext(x -> connectSubscriber()));
            }
        });
    }

    private static long parseRevision(String payload) {
        try {
            return Long.parseLong(payload);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private <T> Future<T> onContext(java.util.function.Supplier<Future<T>> action) {
        io.vertx.core.Promise<T> promise = io.vertx.core.Promise.promise();
        context.runOnContext(v -> action.get().onComplete(promise));
        return promise.future();
    }

    /** For tests: how many reads of the log the announcement of a revision started (see the field). */
    long announcedReads() {
        return announcedReads.get();
    }

    /** For tests and metrics: the newest revision the hub has delivered. */
    long lastRevision() {
        return lastRevision;
    }
}
