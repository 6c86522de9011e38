package io.kplane.store.pg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.ResourceKey;
import io.kplane.store.StoreEvent;
import io.kplane.store.WatchListener;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Small helpers shared by the store tests. */
final class StoreTestSupport {
    private StoreTestSupport() {}

    static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Throwable failure(Future<?> future) {
        try {
            future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode pod(String namespace, String name, String phase) {
        ObjectNode pod = Json.mapper().createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name);
        if (!namespace.isEmpty()) {
            meta.put("namespace", namespace);
        }
        pod.putObject("status").put("phase", phase);
        return pod;
    }

    static ResourceKey podKey(String namespace, String name) {
        return new ResourceKey("pods", namespace, name);
    }

    static StoreConfig fastConfig(PgConnectOptions db) {
        return StoreConfig.of(db).withPoolSize(4).withSafetyPollInterval(Duration.ofMillis(200));
    }

    /** A pool of one connection to {@code db}, for a test's own SQL beside (or instead of) the store. */
    static Pool oneConnectionPool(Vertx vertx, PgConnectOptions db) {
        return PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(1))
                .connectingTo(db)
                .using(vertx)
                .build();
    }

    /** Event-log rows as (revision, type, namespace/name) strings, straight from the table. */
    static List<String> eventLog(Vertx vertx, PgConnectOptions db, String resource, long after) {
        Pool pool = oneConnectionPool(vertx, db);
        try {
            List<String> result = new ArrayList<>();
            for (Row row : await(pool.preparedQuery("SELECT revision, type, namespace, name FROM event_log "
                            + "WHERE resource = $1 AND revision > $2 ORDER BY revision")
                    .execute(Tuple.of(resource, after)))) {
                result.add(row.getLong(0) + " " + row.getString(1) + " " + row.getString(2) + "/" + row.getString(3));
            }
            return result;
        } finally {
            pool.close();
        }
    }

    static String describe(StoreEvent e) {
        return e.revision() + " " + e.type().name().charAt(0) + " " + e.key().namespace() + "/"
                + e.key().name();
    }

    /** Records what a watch delivered. */
    static final class RecordingListener implements WatchListener {
        final List<StoreEvent> events = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        volatile long progress;

        @Override
        public void onEvent(StoreEvent event) {
            events.add(event);
        }

        @Override
        public void onProgress(long revision) {
            progress = revision;
        }

        @Override
        public void onError(Throwable error) {
            this.error.set(error);
        }

        List<String> described() {
            return events.stream().map(StoreTestSupport::describe).toList();
        }
    }
}
