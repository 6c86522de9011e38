package io.kplane.api.core;

import io.kplane.api.meta.KubeObject;
import io.kplane.api.meta.ObjectMeta;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * core/v1 ObjectReference: points at another object (Event.involvedObject, CronJob.status.active).
 */
@RecordBuilder
public record ObjectReference(
        String kind,
        String namespace,
        String name,
        String uid,
        String apiVersion,
        String resourceVersion,
        String fieldPath)
        implements ObjectReferenceBuilder.With {
    /** A reference to {@code obj} as Kubernetes' {@code ref.GetReference} builds it. */
    public static ObjectReference to(KubeObject obj) {
        ObjectMeta m = obj.metadata();
        return new ObjectReference(
                obj.kind(), m.namespace(), m.name(), m.uid(), obj.apiVersion(), m.resourceVersion(), null);
    }
}
