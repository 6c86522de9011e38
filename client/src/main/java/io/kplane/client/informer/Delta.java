package io.kplane.client.informer;

/**
 * One change to one object.
 *
 * @param object            the object after the change; for a delete, its final state (or, if
 *                          {@code finalStateUnknown}, the last state the cache knew)
 * @param finalStateUnknown true for a {@code DeletedFinalStateUnknown} tombstone: the object was found
 *                          missing on relist, so the delete event itself was never seen
 */
public record Delta<T>(DeltaType type, T object, boolean finalStateUnknown) {
    public static <T> Delta<T> of(DeltaType type, T object) {
        return new Delta<>(type, object, false);
    }

    public static <T> Delta<T> tombstone(T lastKnown) {
        return new Delta<>(DeltaType.DELETED, lastKnown, true);
    }
}
