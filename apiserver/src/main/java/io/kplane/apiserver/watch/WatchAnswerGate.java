package io.kplane.apiserver.watch;

import io.vertx.core.Future;

/**
 * Holds a watch's answer (the chunked response's headers, the WebSocket's 101) until the returned
 * future completes. A test seam, absent in a running server: whether a client that changes an object
 * once it sees its watch open gets that change as an event depends on what happens between the
 * watch's list and its answer, and only a test holding the answer at that point can replay every
 * order of the two deterministically (WatchListBeforeAnswerTest). {@link WatchUpgrade#serve} calls
 * it on the request's context, once per watch (after the list, for a watch without a resourceVersion).
 */
@FunctionalInterface
public interface WatchAnswerGate {
    Future<Void> beforeAnswer();
}
