package io.kplane.client.events;

import io.kplane.api.core.EventType;
import io.kplane.api.meta.KubeObject;

/**
 * Records core/v1 Events about an object, with client-go's {@code record.EventRecorder} shape: the one
 * event-recording interface of kplane (controllers, kubelet-sim). {@link ApiEventRecorder} is the
 * implementation that writes the Events (asynchronously, aggregating repeats, logging each once);
 * components depend on this interface so tests and the lens can wrap or replace it.
 *
 * <p>Reasons and messages are worded exactly as Kubernetes words them (e.g. {@code SuccessfulCreate},
 * {@code Created pod: pi-x7k2p}); {@code type} is {@link EventType#NORMAL} or {@link EventType#WARNING}.
 * Recording never blocks on the API server and never throws for a failed write.
 */
@FunctionalInterface
public interface EventRecorder {
    /** Records nothing: for code paths and tests that have no one to tell. */
    EventRecorder NONE = (involved, type, reason, message) -> {};

    void event(KubeObject involved, String type, String reason, String message);

    /** {@link #event} with the message formatted by {@link String#format}, as client-go's {@code Eventf}. */
    default void eventf(KubeObject involved, String type, String reason, String messageFormat, Object... args) {
        event(involved, type, reason, String.format(messageFormat, args));
    }

    /** Refuses a type other than Normal or Warning (a programming error, as in client-go's recorder). */
    static void checkType(String type) {
        if (!EventType.NORMAL.equals(type) && !EventType.WARNING.equals(type)) {
            throw new IllegalArgumentException("event type must be Normal or Warning, got " + type);
        }
    }
}
