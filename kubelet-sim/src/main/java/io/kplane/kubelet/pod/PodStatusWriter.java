package io.kplane.kubelet.pod;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;

/** The pod worker's two writes to the API server. */
public interface PodStatusWriter {

    /**
     * Writes the pod's status (conditions owned by others are merged from the server's copy) and returns
     * the pod as written (its resourceVersion is the base of the next write), or null if it is gone.
     */
    Pod writeStatus(Pod pod, PodStatus status);

    /** Finishes a graceful deletion: DELETE with gracePeriodSeconds=0, preconditioned on the UID. */
    void finishDeletion(Pod pod);
}
