package io.kplane.apiserver.clock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClusterTime;
import io.kplane.api.json.Json;
import io.kplane.store.ListRequest;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's view of the cluster Clock, kept by a list-watch on the store (so every server
 * sharing the database follows it), and a {@link java.time.Clock} reading cluster time from it: the
 * time the server stamps on creation and deletion timestamps and on the status it sets. With no
 * Clock object or a real one, it is the wall clock, read without arithmetic.
 */
public final class ClusterClockCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterClockCache.class);
    private static final long RETRY_MS = 1000;

    private final Vertx vertx;
    private final ResourceStore store;
    private final java.time.Clock wall;
    private final BiConsumer<ObjectNode, ObjectNode> onChange;
    private volatile ClusterTime time = ClusterTime.REAL;
    private volatile WatchHandle handle;
    private volatile boolean closed;

    /** {@code onChange(previous, current)} runs for each stored change of the Clock (previous may be null). */
    public ClusterClockCache(
            Vertx vertx, ResourceStore store, java.time.Clock wall, BiConsumer<ObjectNode, ObjectNode> onChange) {
        this.vertx = vertx;
        this.store = store;
        this.wall = wall;
        this.onChange = onChange;
    }

    public void start() {
        if (closed) {
            return;
        }
        String resource = ResourceTypes.CLOCKS.storageName();
        store.list(ListRequest.all(resource, null)).onComplete(ar -> {
            if (ar.failed()) {
                retry();
                return;
            }
            time = ClusterTime.REAL;
            for (StoredObject o : ar.result().items()) {
                apply(o.object());
            }
            handle = store.watch(resource, null, ar.result().revision(), new WatchListener() {
                @Override
                public void onEvent(StoreEvent event) {
                    if (!Clock.CLUSTER.equals(event.key().name())) {
                        return;
                    }
                    if (event.type() == StoreEvent.Type.DELETED) {
                        time = ClusterTime.REAL;
                    } else {
                        apply(event.object());
                        if (onChange != null) {
                            onChange.accept(event.previous(), event.object());
                        }
                    }
                }

                @Override
                public void onError(Throwable error) {
                    LOG.debug("clock watch ended: {}", error.toString());
                    retry();
                }
            });
        });
    }

    private void apply(ObjectNode object) {
        if (!Clock.CLUSTER.equals(object.path("metadata").path("name").asText())) {
            return;
        }
        try {
            time = Json.mapper().treeToValue(object, Clock.class).clusterTime();
        } catch (Exception e) {
            LOG.warn("cannot read the cluster clock: {}", e.toString());
        }
    }

    private void retry() {
        if (!closed) {
            vertx.setTimer(RETRY_MS, id -> start());
        }
    }

    public ClusterTime time() {
        return time;
    }

    /** Cluster time now. */
    public Instant now() {
        ClusterTime t = time;
        Instant w = wall.instant();
        return t.isReal() ? w : t.at(w);
    }

    /** A {@link java.time.Clock} reading cluster time, for code that takes one. */
    public java.time.Clock asJavaClock() {
        return new java.time.Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException("cluster time is UTC");
            }

            @Override
            public Instant instant() {
                return now();
            }
        };
    }

    @Override
    public void close() {
        closed = true;
        WatchHandle h = handle;
        if (h != null) {
            h.close();
        }
    }
}
