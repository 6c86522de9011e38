package io.kplane.kubelet.pod;

import io.kplane.api.core.Pod;

/** Kubernetes Events about a pod's containers (Created, Started, Killing, BackOff, Failed, ...). */
@FunctionalInterface
public interface PodEvents {
    PodEvents NONE = (pod, type, reason, message) -> {};

    void event(Pod pod, String type, String reason, String message);
}
