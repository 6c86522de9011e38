package io.kplane.store.pg;

import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch. Confined to the hub's context except {@link #close()}. {@code sentUpTo} is the highest
 * revision this watcher has been offered (delivered or filtered out): the next event it gets must be
 * above it, which is what makes catch-up followed by live delivery gap- and duplicate-free.
 */
final class Watcher implements WatchHandle {
    private static final Logger LOG = LoggerFactory.getLogger(Watcher.class);

    final String resource;
    final String namespace; // null: all namespaces
    final long fromRevision;
    private final WatchListener listener;
    private final Consumer<Watcher> onClose;
    long sentUpTo;
    long progressSent;
    boolean live;
    private volatile boolean closed;

    Watcher(String resource, String namespace, long fromRevision, WatchListener listener, Consumer<Watcher> onClose) {
        this.resource = resource;
        this.namespace = namespace;
        this.fromRevision = fromRevision;
        this.listener = listener;
        this.onClose = onClose;
        this.sentUpTo = fromRevision;
        this.progressSent = fromRevision;
    }

    boolean closed() {
        return closed;
    }

    /** Offers the next event in revision order; events at or below {@code sentUpTo} were already seen. */
    void offer(EventRows.LoggedEvent event) {
        if (closed || event.revision <= sentUpTo) {
            return;
        }
        sentUpTo = event.revision;
        if (event.key.resource().equals(resource) && (namespace == null || namespace.equals(event.key.namespace()))) {
            try {
                listener.onEvent(event.event());
            } catch (RuntimeException e) {
                LOG.warn("watch listener on {} failed on revision {}: {}", resource, event.revision, e.toString());
            }
        }
    }

    /** Everything up to {@code revision} has been offered. */
    void progress(long revision) {
        if (closed || revision <= progressSent) {
            return;
        }
        sentUpTo = Math.max(sentUpTo, revision);
        progressSent = revision;
        try {
            listener.onProgress(revision);
        } catch (RuntimeException e) {
            LOG.warn("watch listener on {} failed on progress {}: {}", resource, revision, e.toString());
        }
    }

    /** Ends the watch with an error (at most once). */
    void fail(Throwable error) {
        if (closed) {
            return;
        }
        closed = true;
        onClose.accept(this);
        try {
            listener.onError(error);
        } catch (RuntimeException e) {
            LOG.warn("watch listener on {} failed on error: {}", resource, e.toString());
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            onClose.accept(this);
        }
    }
}
