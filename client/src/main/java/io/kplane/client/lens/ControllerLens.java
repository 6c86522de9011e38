package io.kplane.client.lens;

/**
 * The controller runner's side of the lens: the pause/step gate its workers pass around taking an
 * item, and the sync record for the key a worker took. Worker loop:
 * {@code awaitTurn(); item = queue.get(); gotItem(item)} (or {@code releaseTurn()} when there is none),
 * then {@code beginSync(item)} ... {@code scope.finish(...)}.
 */
public interface ControllerLens {
    ControllerLens NOOP = new ControllerLens() {};

    /** Before {@code queue.get()}: waits for this worker's turn to take an item. */
    default void awaitTurn() throws InterruptedException {}

    /** After {@code queue.get()} returned {@code key}: holds it while the controller is paused, until a step. */
    default void gotItem(String key) throws InterruptedException {}

    /** After {@code queue.get()} returned nothing (shutdown) or failed. */
    default void releaseTurn() {}

    /**
     * Opens the sync record for {@code key} on this thread (see {@link SyncScope#current()}), with the
     * triggers coalesced into the key since its last sync. The runner closes it with {@link SyncScope#finish}.
     */
    default SyncScope beginSync(String key) {
        return SyncScope.NOOP;
    }
}
