package io.kplane.controllers.job;

import io.kplane.api.core.Pod;

/**
 * The pod writes the Job controller makes. The real implementation talks to the API server; the
 * unit tests record the calls (upstream's {@code FakePodControl}).
 */
public interface PodControl {
    /** Creates the pod; throws when the API server refuses. */
    Pod create(Pod pod) throws Exception;

    /** Deletes the pod; false when it was already gone. */
    boolean delete(String namespace, String name) throws Exception;

    /** Removes the {@code batch.kubernetes.io/job-tracking} finalizer; false when the pod is gone. */
    boolean removeTrackingFinalizer(Pod pod) throws Exception;

    /** Adopts an orphan pod: adds the Job's controller reference (and the tracking finalizer). */
    void adopt(Pod pod, io.kplane.api.meta.OwnerReference controllerRef) throws Exception;

    /** Releases a pod that no longer matches the selector: removes the controller reference. */
    void release(Pod pod, String ownerUid) throws Exception;
}
