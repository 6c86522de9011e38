package io.kplane.apiserver.handlers;

import io.vertx.core.Context;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's event-loop contexts (one per HTTP server instance), handed out in turn so that the
 * CPU work of requests multiplexed on one connection is shared by every loop.
 */
public final class WorkContexts {
    private final List<Context> contexts = new CopyOnWriteArrayList<>();
    private final AtomicInteger turn = new AtomicInteger();

    /** Adds the context of a server instance that has started. */
    public void add(Context context) {
        contexts.add(context);
    }

    public void remove(Context context) {
        contexts.remove(context);
    }

    /** The next context in turn, or {@code fallback} while none is registered. */
    public Context next(Context fallback) {
        List<Context> all = contexts;
        int size = all.size();
        if (size == 0) {
            return fallback;
        }
        try {
            return all.get(Math.floorMod(turn.getAndIncrement(), size));
        } catch (IndexOutOfBoundsException e) {
            return fallback; // an instance stopped meanwhile
        }
    }
}
