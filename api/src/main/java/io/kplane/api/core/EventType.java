package io.kplane.api.core;

/** An Event's {@code type} (core/v1 {@code EventTypeNormal}, {@code EventTypeWarning}): the only two there are. */
public final class EventType {
    /** Information, e.g. a pod was created or a container started. */
    public static final String NORMAL = "Normal";
    /** Something may be wrong, e.g. a back-off, a failed mount, a Job that hit its limit. */
    public static final String WARNING = "Warning";

    private EventType() {}
}
