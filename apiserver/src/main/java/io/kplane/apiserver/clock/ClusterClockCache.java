package io.kplane.apiserver.clock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceTypes;
import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClusterTime;
import io.kplane.api.json.Json;
import io.kplane.apiserver.storage.StoreMirror;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's view of the cluster Clock, kept by a list-watch on the store (so every server
 * sharing the database follows it), and a {@link java.time.Clock} reading cluster time from it: the
 * time the server stamps on creation and deletion timestamps and on the status it sets. With no
 * Clock object or a real one, it is the wall clock, read without arithmetic. The list-watch is a
 * {@link StoreMirror}.
 */
public final class ClusterClockCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterClockCache.class);

    private final java.time.Clock wall;
    private final StoreMirror mirror;
    private volatile ClusterTime time = ClusterTime.REAL;

    /** {@code onChange(previous, current)} runs for each stored change of the Clock (previous may be null). */
    public ClusterClockCache(
            Vertx vertx, ResourceStore store, java.time.Clock wall, BiConsumer<ObjectNode, ObjectNode> onChange) {
        this.wall = wall;
        this.mirror = new StoreMirror(vertx, store, ResourceTypes.CLOCKS.storageName(), new StoreMirror.Listener() {
            @Override
            public void onList(List<StoredObject> items) {
                time = ClusterTime.REAL;
                for (StoredObject o : items) {
                    apply(o.object());
                }
            }

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
        });
    }

    public void start() {
        mirror.start();
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
        mirror.close();
    }
}
