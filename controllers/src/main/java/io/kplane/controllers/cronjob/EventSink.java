package io.kplane.controllers.cronjob;

import io.kplane.api.core.EventType;
import io.kplane.api.meta.KubeObject;

/** Records a core/v1 Event about an object (reason and message exactly as Kubernetes words them). */
@FunctionalInterface
public interface EventSink {
    String NORMAL = EventType.NORMAL;
    String WARNING = EventType.WARNING;

    void event(KubeObject about, String type, String reason, String message);
}
