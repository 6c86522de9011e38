package io.kplane.controllers.job;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.WatchEvent;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ListOptions;
import io.kplane.client.ResourceClient;
import io.kplane.client.WatchStream;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test's own watch on one collection: lists once, then delivers every later event in revision order
 * to {@code sink} on a single thread, re-opening the stream from the last seen resourceVersion when the
 * server ends it. One thread and one stream, so the sink sees the store's history in order.
 */
final class WatchLoop<T extends KubeObject> implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WatchLoop.class);

    private final ResourceClient<T> resource;
    private final ListOptions options;
    private final Consumer<WatchEvent<T>> sink;
    private final Thread thread;
    private volatile boolean closed;
    private volatile WatchStream<T> stream;
    private volatile String resourceVersion;

    private WatchLoop(ResourceClient<T> resource, ListOptions options, Consumer<WatchEvent<T>> sink, String name) {
        this.resource = resource;
        this.options = options;
        this.sink = sink;
        this.thread = DaemonThreads.newThread("watch-" + name, this::run);
    }

    /** Starts watching; objects that exist already are delivered first as ADDED. */
    static <T extends KubeObject> WatchLoop<T> start(
            ResourceClient<T> resource, ListOptions options, Consumer<WatchEvent<T>> sink, String name) {
        WatchLoop<T> loop = new WatchLoop<>(resource, options, sink, name);
        var list = resource.list(options);
        loop.resourceVersion = list.metadata().resourceVersion();
        if (list.items() != null) {
            list.items().forEach(o -> sink.accept(new WatchEvent<>(WatchEvent.ADDED, o)));
        }
        loop.thread.start();
        return loop;
    }

    private void run() {
        while (!closed) {
            try (WatchStream<T> s =
                    resource.watch(options.withResourceVersion(resourceVersion).withAllowWatchBookmarks(true))) {
                stream = s;
                if (closed) {
                    return;
                }
                WatchEvent<T> event;
                while ((event = s.next()) != null) {
                    resourceVersion = event.object().metadata().resourceVersion();
                    if (!WatchEvent.BOOKMARK.equals(event.type())) {
                        sink.accept(event);
                    }
                }
            } catch (RuntimeException e) {
                if (!closed) {
                    // A test watch must not lose events: a 410 here is a failure the assertions will show.
                    log.warn("test watch {} broke: {}", thread.getName(), e.toString());
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        WatchStream<T> s = stream;
        if (s != null) {
            s.close();
        }
    }
}
