package io.kplane.client.informer;

/** What happened to an object, as recorded in the {@link DeltaFIFO}. */
public enum DeltaType {
    ADDED,
    UPDATED,
    DELETED,
    /** The object was in a relist ({@link DeltaFIFO#replace}); it may or may not have changed. */
    REPLACED,
    /** A periodic resync re-delivers the cached object. */
    SYNC
}
