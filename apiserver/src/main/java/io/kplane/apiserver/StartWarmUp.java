package io.kplane.apiserver;

import io.kplane.api.clock.Clock;
import io.kplane.api.json.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work every API server start does between "store open" and "serving", begun at {@code main} on a
 * thread of its own so that it overlaps the Vert.x set-up and the database open instead of following
 * them (docs/performance.md, "`up`'s critical path"). Nothing here is extra work: it is what the
 * server's construction and its first steps would do a moment later, on the same singletons, so a
 * server that gets there first simply waits for (or finds) the result.
 *
 * <ul>
 *   <li>Jackson's mappers ({@link Json#mapper()}, {@link Json#yamlMapper()}): the request body
 *       decoders take both when the server is constructed; building the first {@code ObjectMapper} is
 *       the largest single step of the construction (16 of 22 main-thread samples after the store
 *       opened, JFR at 1 ms).
 *   <li>The deserializer of {@link Clock}: the cluster clock cache reads the Clock once it is listed,
 *       before the first request is answered.
 * </ul>
 */
final class StartWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(StartWarmUp.class);

    private StartWarmUp() {}

    /** Starts the warm-up on a daemon thread and returns at once. */
    static Thread begin() {
        Thread thread = new Thread(StartWarmUp::run, "apiserver-warm-up");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static void run() {
        try {
            Json.mapper().readerFor(Clock.class); // builds the mapper and caches Clock's deserializer in it
            Json.yamlMapper();
        } catch (RuntimeException | LinkageError e) {
            // the same work runs again where it is needed, and fails there with its own message
            LOG.debug("start warm-up failed: {}", e.toString());
        }
    }
}
