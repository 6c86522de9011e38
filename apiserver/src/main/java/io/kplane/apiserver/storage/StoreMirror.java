package io.kplane.apiserver.storage;

import io.kplane.store.ListRequest;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.vertx.core.Vertx;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an in-memory view of one resource in step with the store, the API server's small informer: list
 * everything, then watch from the list's revision; when the watch ends (the store restarted, the
 * revision was compacted) list again after a second. What to keep of each object is the {@link
 * Listener}'s business: the namespace cache keeps names, the cluster clock cache one object.
 */
public final class StoreMirror implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreMirror.class);
    private static final long RETRY_MS = 1000;

    /** What the mirror tells its owner; called on a Vert.x thread, one call at a time. */
    public interface Listener {
        /** A fresh list: these are all the objects there are now (replace whatever was kept). */
        void onList(List<StoredObject> items);

        /** A change after the list, in store order. */
        void onEvent(StoreEvent event);

        /** The watch ended; a new list follows once the store answers. */
        default void onWatchEnded() {}
    }

    private final Vertx vertx;
    private final ResourceStore store;
    private final String resource;
    private final Listener listener;
    private volatile WatchHandle handle;
    private volatile boolean closed;

    /** @param resource the resource's storage name ({@code ResourceTypes.X.storageName()}) */
    public StoreMirror(Vertx vertx, ResourceStore store, String resource, Listener listener) {
        this.vertx = vertx;
        this.store = store;
        this.resource = resource;
        this.listener = listener;
    }

    public void start() {
        if (closed) {
            return;
        }
        store.list(ListRequest.all(resource, null)).onComplete(ar -> {
            if (ar.failed()) {
                LOG.debug("listing {} failed: {}", resource, ar.cause().toString());
                retry();
                return;
            }
            if (closed) {
                return;
            }
            listener.onList(ar.result().items());
            handle = store.watch(resource, null, ar.result().revision(), new WatchListener() {
                @Override
                public void onEvent(StoreEvent event) {
                    listener.onEvent(event);
                }

                @Override
                public void onError(Throwable error) {
                    LOG.debug("{} watch ended: {}", resource, error.toString());
                    listener.onWatchEnded();
                    retry();
                }
            });
        });
    }

    private void retry() {
        if (!closed) {
            vertx.setTimer(RETRY_MS, id -> start());
        }
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
