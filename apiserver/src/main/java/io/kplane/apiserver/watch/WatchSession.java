package io.kplane.apiserver.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;
import io.kplane.api.meta.WatchEvent;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.errors.Errors;
import io.kplane.apiserver.render.RenderRequest;
import io.kplane.apiserver.render.ResponseRenderer;
import io.kplane.store.EncodedObject;
import io.kplane.store.ListPage;
import io.kplane.store.ResourceStore;
import io.kplane.store.StoreEvent;
import io.kplane.store.StoredObject;
import io.kplane.store.WatchHandle;
import io.kplane.store.WatchListener;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Context;
import java.time.Duration;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch: newline-delimited {@code {"type":...,"object":...}} events written to a {@link WatchStream}
 * (chunked HTTP, or one WebSocket text frame per event). Starts with
 * synthetic ADDED events for the current objects when no start revision is given, then relays store
 * events. Selectors are evaluated on the new and the previous state, so an object that starts or
 * stops matching is seen as ADDED or DELETED. All state is confined to the request's context.
 */
public final class WatchSession implements WatchListener {
    private static final Logger LOG = LoggerFactory.getLogger(WatchSession.class);

    private final Context context;
    private final WatchStream stream;
    private final ResourceType type;
    private final String namespace;
    private final Predicate<ObjectNode> filter;
    private final ResponseRenderer renderer;
    private final RenderRequest renderRequest;
    private final WatchSettings settings;
    private final Runnable onEnd;
    private final EncodedEvents encoded;

    private final java.util.concurrent.ConcurrentLinkedQueue<Object> inbox =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean drainScheduled =
            new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * Lines collected while draining, written at the end of the drain as one buffer that only
     * points at them (the lines are shared by all watchers; see {@link EncodedEvents}), so a burst
     * is one socket write (gathering) and is never copied per watcher.
     */
    private java.util.List<ByteBuf> batch;

    private WatchHandle handle;
    private long lastRevision;
    private boolean first = true;
    private boolean ended;
    private long timeoutTimer = -1;
    private long bookmarkTimer = -1;

    public WatchSession(
            Context context,
            WatchStream stream,
            ResourceType type,
            String namespace,
            Predicate<ObjectNode> filter,
            ResponseRenderer renderer,
            RenderRequest renderRequest,
            WatchSettings settings,
            EncodedEvents encoded,
            Runnable onEnd) {
        this.context = context;
        this.stream = stream;
        this.type = type;
        this.namespace = namespace;
        this.filter = filter;
        this.renderer = renderer;
        this.renderRequest = renderRequest;
        this.settings = settings;
        this.onEnd = onEnd;
        this.encoded = encoded;
    }

    /**
     * Starts streaming the changes after {@code fromRevision} (a watch with a resourceVersion). A watch
     * without one ("current state first") lists before its response is opened and uses
     * {@link #startListed}.
     */
    public void start(ResourceStore store, long fromRevision) {
        open();
        lastRevision = fromRevision;
        handle = store.watch(type.storageName(), namespace, fromRevision, this);
    }

    /**
     * Starts streaming from a list taken before the stream was opened: its objects as ADDED, then the
     * changes after its revision. Listing before the response's headers (or the WebSocket's 101) is what
     * kube-apiserver guarantees too (the watcher exists before {@code serveWatch} writes anything): a
     * client that saw the watch open and then changed an object sees that change as MODIFIED; listed
     * after the headers, the list could already hold the change and the event never came (fabric8's
     * {@code WatchIT.testWatch}).
     */
    public void startListed(ResourceStore store, ListPage listed) {
        open();
        if (ended) {
            return;
        }
        for (StoredObject o : listed.items()) {
            write(WatchEvent.ADDED, o.object(), 0, null);
        }
        lastRevision = listed.revision();
        handle = store.watch(type.storageName(), namespace, lastRevision, this);
    }

    private void open() {
        stream.open(renderer.contentType(), this::end);
        if (settings.timeout() != null) {
            timeoutTimer = context.owner()
                    .setTimer(Math.max(1, settings.timeout().toMillis()), id -> {
                        timeoutTimer = -1;
                        if (settings.bookmarks() && lastRevision > 0) {
                            writeBookmark();
                        }
                        end();
                    });
        }
        if (settings.bookmarks()) {
            long every = Math.max(1, settings.bookmarkInterval().toMillis());
            bookmarkTimer = context.owner().setPeriodic(every, id -> {
                if (lastRevision > 0) {
                    writeBookmark();
                }
            });
        }
    }

    /*
     * The store calls back on its own thread. Callbacks are queued and drained on the request's
     * context in one task, so a burst of events becomes one socket write instead of one per event.
     */
    @Override
    public void onEvent(StoreEvent event) {
        enqueue(event);
    }

    @Override
    public void onProgress(long revision) {
        enqueue(revision);
    }

    @Override
    public void onError(Throwable error) {
        enqueue(error);
    }

    private void enqueue(Object item) {
        inbox.add(item);
        if (drainScheduled.compareAndSet(false, true)) {
            context.runOnContext(v -> drain());
        }
    }

    private void drain() {
        drainScheduled.set(false);
        batch = new java.util.ArrayList<>();
        try {
            Object item;
            while ((item = inbox.poll()) != null) {
                if (ended) {
                    inbox.clear();
                    break;
                }
                if (item instanceof StoreEvent event) {
                    deliver(event);
                } else if (item instanceof Long revision) {
                    lastRevision = Math.max(lastRevision, revision);
                } else if (item instanceof Throwable error) {
                    flushBatch();
                    ApiError apiError = Errors.toApiError(error, type, null);
                    LOG.info("watch {} ns={} ended: {}", type.storageName(), namespace, apiError.getMessage());
                    writeError(apiError);
                    end();
                }
            }
        } finally {
            flushBatch();
        }
    }

    private void flushBatch() {
        java.util.List<ByteBuf> pending = batch;
        batch = null;
        if (pending == null || pending.isEmpty()) {
            return;
        }
        writeEvents(pending);
    }

    private void send(ByteBuf line) {
        if (batch != null) {
            batch.add(line);
        } else {
            writeEvents(java.util.List.of(line));
        }
    }

    private void deliver(StoreEvent event) {
        if (ended) {
            return;
        }
        lastRevision = Math.max(lastRevision, event.revision());
        boolean now = event.object() != null && filter.test(event.object());
        boolean before = event.previous() != null && filter.test(event.previous());
        switch (event.type()) {
            case ADDED -> {
                if (now) {
                    write(WatchEvent.ADDED, event.object(), event.revision(), event.encoded());
                }
            }
            case MODIFIED -> {
                if (now && before) {
                    write(WatchEvent.MODIFIED, event.object(), event.revision(), event.encoded());
                } else if (now) {
                    write(WatchEvent.ADDED, event.object(), event.revision(), event.encoded());
                } else if (before) {
                    write(WatchEvent.DELETED, event.object(), event.revision(), event.encoded());
                }
            }
            case DELETED -> {
                if (now || before) {
                    write(WatchEvent.DELETED, event.object(), event.revision(), event.encoded());
                }
            }
        }
    }

    /**
     * {@code revision} is the event's store revision, 0 for the synthetic ADDED of the initial state;
     * {@code json} the object as the store wrote it, when the event comes from this instance's write.
     */
    private void write(String eventType, ObjectNode object, long revision, EncodedObject json) {
        if (renderer instanceof io.kplane.apiserver.render.JsonRenderer) {
            first = false;
            send(encoded.line(eventType, revision, object, json));
            return;
        }
        JsonNode rendered = renderer.renderWatchObject(renderRequest, object, first);
        first = false;
        writeLine(eventType, rendered);
    }

    private void writeBookmark() {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        object.put("kind", type.kind());
        object.put("apiVersion", type.apiVersion());
        object.putObject("metadata").put("resourceVersion", Long.toString(lastRevision));
        writeLine(WatchEvent.BOOKMARK, object);
    }

    private void writeError(ApiError error) {
        writeLine(WatchEvent.ERROR, Json.toTree(error.status()));
    }

    private void writeLine(String eventType, JsonNode object) {
        if (ended) {
            return;
        }
        send(Unpooled.wrappedBuffer(EncodedEvents.encode(eventType, object)));
    }

    private void writeEvents(java.util.List<ByteBuf> lines) {
        if (ended) {
            return;
        }
        stream.write(lines);
        if (stream.writeQueueFull()) {
            // a client that does not keep up is cut off; it resumes from the last revision it saw
            LOG.warn("watch {} ns={} closed: client too slow", type.storageName(), namespace);
            ended = true;
            cleanup();
            stream.abort();
        }
    }

    /** Ends the stream (idempotent). */
    public void end() {
        if (ended) {
            return;
        }
        ended = true;
        cleanup();
        stream.end();
    }

    private void cleanup() {
        if (handle != null) {
            handle.close();
        }
        if (timeoutTimer >= 0) {
            context.owner().cancelTimer(timeoutTimer);
        }
        if (bookmarkTimer >= 0) {
            context.owner().cancelTimer(bookmarkTimer);
        }
        onEnd.run();
    }

    /** @param timeout null for no timeout */
    public record WatchSettings(Duration timeout, boolean bookmarks, Duration bookmarkInterval) {}
}
