package io.kplane.client.informer;

import io.kplane.api.meta.KubeList;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.WatchEvent;
import io.kplane.client.ApiConnectionException;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClientException;
import io.kplane.client.ListOptions;
import io.kplane.client.WatchStream;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link ReflectorStore} in step with the server: list (paged with limit/continue) and
 * {@code replace}; then watch from the list's resourceVersion and apply each event. When a watch ends
 * (server timeout) it re-watches at once from the last resourceVersion seen (bookmarks included); when the
 * connection fails it re-watches after a back-off; when the resourceVersion is gone (410 Expired) it
 * relists, and the store's {@code replace} reports what changed meanwhile, deletions included.
 *
 * <p>{@link #run()} blocks the calling thread until {@link #stop()}.
 */
public final class Reflector<T extends KubeObject> {
    private static final Logger log = LoggerFactory.getLogger(Reflector.class);
    /** A watch that ends sooner than this without delivering anything counts as a failure (avoids hot loops). */
    private static final Duration SHORT_WATCH = Duration.ofSeconds(1);

    private final String name;
    private final ListerWatcher<T> listerWatcher;
    private final ReflectorStore<T> store;
    private final Clock clock;
    private final ReflectorOptions options;
    private final AtomicInteger lists = new AtomicInteger();
    private final AtomicInteger watches = new AtomicInteger();
    private volatile boolean stopped;
    private volatile Thread runner;
    private volatile WatchStream<T> currentWatch;
    private volatile String lastSyncResourceVersion = "";
    private volatile boolean watching;
    private volatile Instant lastEventTime;
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger idleReconnects = new AtomicInteger();
    private boolean startupWaitLogged;

    public Reflector(
            String name,
            ListerWatcher<T> listerWatcher,
            ReflectorStore<T> store,
            Clock clock,
            ReflectorOptions options) {
        this.name = name;
        this.listerWatcher = listerWatcher;
        this.store = store;
        this.clock = clock;
        this.options = options;
    }

    private volatile io.kplane.client.lens.Lens lens = io.kplane.client.lens.Lens.NOOP;
    private volatile String resource;

    /** Reports lists, watches (and why each ended) and every event to {@code lens}. */
    public void lens(io.kplane.client.lens.Lens lens, String resource) {
        this.lens = lens;
        this.resource = resource;
    }

    private void report(String type, String key, String rv, java.util.Map<String, Object> detail) {
        if (lens.enabled()) {
            lens.record(io.kplane.client.lens.LensRecord.of(null, "reflector", type, resource, key, rv, detail));
        }
    }

    private void watchEnded(String reason, int events, String error) {
        if (lens.enabled()) {
            java.util.Map<String, Object> detail = new java.util.LinkedHashMap<>();
            detail.put("reason", reason);
            detail.put("events", events);
            if (error != null) {
                detail.put("error", error);
            }
            report("watch-end", null, lastSyncResourceVersion, detail);
        }
    }

    /** Lists and watches until {@link #stop()}; failures are logged and retried with back-off. */
    public void run() {
        runner = Thread.currentThread();
        Backoff backoff = new Backoff();
        try {
            while (!stopped) {
                try {
                    listAndWatch(backoff);
                } catch (KubeClientException e) {
                    if (stopped) {
                        break;
                    }
                    if (backoff.starting()) {
                        // expected while the API server starts beside this component: said once, not per retry
                        if (!startupWaitLogged) {
                            startupWaitLogged = true;
                            log.info(
                                    "reflector {}: waiting for the API server ({}); retrying every {} ms",
                                    name,
                                    e.getMessage(),
                                    options.startupRetry().toMillis());
                        }
                        clock.sleep(backoff.next());
                        continue;
                    }
                    Duration delay = backoff.next();
                    log.warn("reflector {}: {}; retrying in {} ms", name, e.getMessage(), delay.toMillis());
                    clock.sleep(delay);
                } catch (RuntimeException e) {
                    // A bug (in decoding, in the store, in a key function) must neither kill the reflector
                    // silently, leaving a cache that claims to be synced but never changes again, nor be
                    // hidden: it is logged with its stack trace and the reflector starts over with a relist.
                    if (stopped) {
                        break;
                    }
                    failures.incrementAndGet();
                    Duration delay = backoff.next();
                    log.error("reflector {}: unexpected failure, relisting in {} ms", name, delay.toMillis(), e);
                    clock.sleep(delay);
                }
            }
        } catch (InterruptedException e) {
            if (!stopped) {
                Thread.currentThread().interrupt();
            }
        } catch (Error e) {
            log.error("reflector {} died; its cache no longer follows the server", name, e);
            throw e;
        } finally {
            watching = false;
            runner = null;
            if (!stopped) {
                log.error("reflector {} stopped without being asked to; its cache no longer follows the server", name);
            }
        }
    }

    /** When the last watch event (bookmarks included) or list arrived; null before the first list. */
    public Instant lastEventTime() {
        return lastEventTime;
    }

    /** Unexpected failures (bugs) the reflector recovered from by relisting. */
    public int unexpectedFailures() {
        return failures.get();
    }

    /** Watches closed because they stayed silent longer than the idle timeout. */
    public int idleReconnects() {
        return idleReconnects.get();
    }

    public void stop() {
        stopped = true;
        WatchStream<T> watch = currentWatch;
        if (watch != null) {
            watch.close();
        }
        Thread thread = runner;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** The resourceVersion of the last list or event applied ("" before the first list). */
    public String lastSyncResourceVersion() {
        return lastSyncResourceVersion;
    }

    /** Completed lists so far (the first one plus every relist). */
    public int listCount() {
        return lists.get();
    }

    /** Watches opened so far. */
    public int watchCount() {
        return watches.get();
    }

    public boolean isWatching() {
        return watching;
    }

    private void listAndWatch(Backoff backoff) throws InterruptedException {
        list();
        while (!stopped) {
            WatchStream<T> watch;
            try {
                watch = listerWatcher.watch(watchOptions());
            } catch (ApiException e) {
                if (e.isGone()) {
                    log.info(
                            "reflector {}: resourceVersion {} is gone ({}); relisting",
                            name,
                            lastSyncResourceVersion,
                            e.getMessage());
                    watchEnded("410 Gone: relist", 0, e.getMessage());
                    return;
                }
                watchEnded("refused", 0, e.getMessage());
                if (!isTransient(e)) {
                    throw e;
                }
                Duration delay = backoff.next();
                log.warn("reflector {}: watch refused: {}; retrying in {} ms", name, e.getMessage(), delay.toMillis());
                clock.sleep(delay);
                continue;
            } catch (ApiConnectionException e) {
                Duration delay = backoff.next();
                watchEnded("connection failed", 0, e.getMessage());
                log.warn("reflector {}: watch failed: {}; retrying in {} ms", name, e.getMessage(), delay.toMillis());
                clock.sleep(delay);
                continue;
            }
            watches.incrementAndGet();
            currentWatch = watch;
            watching = true;
            report("watch-start", null, lastSyncResourceVersion, null);
            watchEvents = 0;
            IdleWatchdog watchdog = new IdleWatchdog(watch);
            try {
                if (stopped) {
                    return;
                }
                Instant started = clock.now();
                int events = handleWatch(watch);
                watchEnded(
                        stopped
                                ? "stopped"
                                : clock.since(started).compareTo(SHORT_WATCH) >= 0 ? "timeout or EOF" : "EOF",
                        events,
                        null);
                if (events > 0 || clock.since(started).compareTo(SHORT_WATCH) >= 0) {
                    backoff.reset();
                } else if (!stopped) {
                    clock.sleep(backoff.next());
                }
            } catch (ApiException e) {
                if (e.isGone()) {
                    log.info(
                            "reflector {}: watch from {} expired ({}); relisting",
                            name,
                            lastSyncResourceVersion,
                            e.getMessage());
                    watchEnded("410 Gone: relist", watchEvents, e.getMessage());
                    return;
                }
                watchEnded("error " + e.code(), watchEvents, e.getMessage());
                if (!isTransient(e)) {
                    throw e;
                }
                Duration delay = backoff.next();
                log.warn(
                        "reflector {}: watch ended with {}; re-watching from {} in {} ms",
                        name,
                        e.getMessage(),
                        lastSyncResourceVersion,
                        delay.toMillis());
                clock.sleep(delay);
            } catch (ApiConnectionException e) {
                if (stopped) {
                    return;
                }
                watchEnded("connection broke", watchEvents, e.getMessage());
                Duration delay = backoff.next();
                log.warn(
                        "reflector {}: watch broke: {}; re-watching from {} in {} ms",
                        name,
                        e.getMessage(),
                        lastSyncResourceVersion,
                        delay.toMillis());
                clock.sleep(delay);
            } finally {
                watchdog.cancel();
                watching = false;
                currentWatch = null;
                watch.close();
            }
        }
    }

    /** Overload and server-side failures: the resourceVersion is still good, so re-watch rather than relist. */
    private static boolean isTransient(ApiException e) {
        return e.code() == 429 || e.code() == 500 || e.code() == 503 || e.code() == 504;
    }

    private int watchEvents;

    private void list() {
        report("list-start", null, lastSyncResourceVersion, null);
        List<T> items = new ArrayList<>();
        String resourceVersion = null;
        String token = null;
        Long limit = options.pageSize() > 0 ? options.pageSize() : null;
        do {
            KubeList<T> page;
            try {
                page = listerWatcher.list(ListOptions.none().withLimit(limit).withContinueToken(token));
            } catch (ApiException e) {
                if (e.isGone() && token != null) {
                    // The continue token outlived the compaction window: start over in one request.
                    log.info("reflector {}: list continuation expired; listing without paging", name);
                    items.clear();
                    resourceVersion = null;
                    token = null;
                    limit = null;
                    continue;
                }
                throw e;
            }
            if (resourceVersion == null && page.metadata() != null) {
                resourceVersion = page.metadata().resourceVersion();
            }
            if (page.items() != null) {
                items.addAll(page.items());
            }
            token = page.metadata() == null ? null : page.metadata()._continue();
        } while (token != null && !token.isEmpty());
        store.replace(items, resourceVersion);
        lastEventTime = clock.now();
        lastSyncResourceVersion = resourceVersion == null ? "" : resourceVersion;
        lists.incrementAndGet();
        report("list-end", null, resourceVersion, java.util.Map.of("items", items.size()));
        log.info("reflector {}: listed {} objects at resourceVersion {}", name, items.size(), resourceVersion);
    }

    private ListOptions watchOptions() {
        long min = Math.max(1, options.minWatchTimeout().toSeconds());
        long timeout = min + ThreadLocalRandom.current().nextLong(min);
        return ListOptions.none()
                .withResourceVersion(lastSyncResourceVersion)
                .withAllowWatchBookmarks(true)
                .withTimeoutSeconds(timeout);
    }

    /** Applies events until the stream ends; returns how many arrived. */
    private int handleWatch(WatchStream<T> watch) {
        int count = 0;
        while (!stopped) {
            WatchEvent<T> event = watch.next();
            if (event == null) {
                return count;
            }
            count++;
            watchEvents = count;
            lastEventTime = clock.now();
            T obj = event.object();
            if (obj != null && lens.enabled()) {
                reportEvent(event.type(), obj);
            }
            if (obj == null) {
                log.warn("reflector {}: {} event without an object", name, event.type());
                continue;
            }
            switch (event.type()) {
                case WatchEvent.ADDED -> store.add(obj);
                case WatchEvent.MODIFIED -> store.update(obj);
                case WatchEvent.DELETED -> store.delete(obj);
                case WatchEvent.BOOKMARK -> {
                    // only moves the resourceVersion forward
                }
                default -> {
                    log.warn("reflector {}: ignoring watch event of type {}", name, event.type());
                    continue;
                }
            }
            String rv = obj.metadata() == null ? null : obj.metadata().resourceVersion();
            if (rv != null && !rv.isEmpty()) {
                lastSyncResourceVersion = rv;
            }
        }
        return count;
    }

    private void reportEvent(String eventType, T obj) {
        String rv = obj.metadata() == null ? null : obj.metadata().resourceVersion();
        report(
                "event",
                WatchEvent.BOOKMARK.equals(eventType) ? null : obj.key(),
                rv,
                java.util.Map.of("type", eventType));
    }

    /**
     * Closes a watch that has been silent longer than {@link ReflectorOptions#watchIdleTimeout()}: the
     * server sends a bookmark at least every {@link ReflectorOptions#BOOKMARK_INTERVAL}, so such a
     * watch is a half-open connection (the peer is gone, a middlebox dropped it) that would otherwise
     * hang the informer until a server-side timeout that never comes. Closing it ends the blocking
     * read; the reflector re-watches from the last resourceVersion it saw, losing nothing.
     */
    private final class IdleWatchdog {
        private final WatchStream<T> watch;
        private final Instant openedAt = clock.now();
        private volatile Clock.Timer timer;
        private volatile boolean cancelled;

        IdleWatchdog(WatchStream<T> watch) {
            this.watch = watch;
            arm();
        }

        private void arm() {
            Duration idle = options.watchIdleTimeout();
            if (idle == null || idle.isZero() || idle.isNegative() || cancelled) {
                return;
            }
            Duration every = idle.dividedBy(4).isZero() ? idle : idle.dividedBy(4);
            timer = clock.schedule(every, this::check);
        }

        private void check() {
            if (cancelled) {
                return;
            }
            Instant last = lastEventTime == null || lastEventTime.isBefore(openedAt) ? openedAt : lastEventTime;
            Duration silent = Duration.between(last, clock.now());
            if (silent.compareTo(options.watchIdleTimeout()) > 0) {
                idleReconnects.incrementAndGet();
                log.warn(
                        "reflector {}: watch silent for {} ms (no event or bookmark; limit {} ms): presuming the "
                                + "connection dead and re-watching from {}",
                        name,
                        silent.toMillis(),
                        options.watchIdleTimeout().toMillis(),
                        lastSyncResourceVersion);
                watch.close();
                return;
            }
            arm();
        }

        void cancel() {
            cancelled = true;
            Clock.Timer t = timer;
            if (t != null) {
                t.cancel();
            }
        }
    }

    /** Exponential back-off with jitter: initial, doubling, capped; reset after a healthy watch. */
    private final class Backoff {
        private final Instant started = clock.now();
        private Duration current = options.initialBackoff();

        /** Never listed yet, within the options' start-up window: retried at the fixed start-up interval. */
        boolean starting() {
            return !options.startupRetry().isZero()
                    && lists.get() == 0
                    && clock.since(started).compareTo(options.startupWindow()) < 0;
        }

        Duration next() {
            if (starting()) {
                return options.startupRetry();
            }
            Duration delay = current;
            current = current.multipliedBy(2);
            if (current.compareTo(options.maxBackoff()) > 0) {
                current = options.maxBackoff();
            }
            double jitter = 1.0 + ThreadLocalRandom.current().nextDouble(0.2);
            return Duration.ofNanos((long) (delay.toNanos() * jitter));
        }

        void reset() {
            current = options.initialBackoff();
        }
    }
}
