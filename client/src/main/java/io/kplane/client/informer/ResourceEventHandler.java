package io.kplane.client.informer;

/**
 * Callbacks of a {@link SharedInformer}. Each registered handler is called on its own thread, one
 * notification at a time, in the order the informer saw the changes. Handlers should only enqueue keys.
 */
public interface ResourceEventHandler<T> {

    /** @param isInInitialList true while the informer is delivering its first list */
    default void onAdd(T obj, boolean isInInitialList) {}

    /** Also called on resync (then {@code oldObj} and {@code newObj} have the same resourceVersion). */
    default void onUpdate(T oldObj, T newObj) {}

    /**
     * @param obj               the final state, or the last state the cache knew
     * @param finalStateUnknown true if the delete was detected on relist (a {@code DeletedFinalStateUnknown}
     *                          tombstone): the object may have changed after {@code obj} before it was deleted
     */
    default void onDelete(T obj, boolean finalStateUnknown) {}
}
