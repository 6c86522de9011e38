package io.kplane.kubelet.stream;

import java.util.Optional;

/** Finds the running attempt of a pod's container on this node (the kubelet's {@code findContainer}). */
@FunctionalInterface
public interface ContainerLookup {
    /**
     * The runtime's ID ({@code process://...}, {@code docker://...}) of the running container, or empty.
     *
     * @param uid the pod's UID when the API server sent it, else null (then the pod is found by name)
     */
    Optional<String> runningContainer(String namespace, String pod, String uid, String container);

    /**
     * The runtime's ID of any running container of the pod (port forwarding targets the pod, not a
     * container), or empty when none runs here.
     */
    default Optional<String> anyRunningContainer(String namespace, String pod, String uid) {
        return Optional.empty();
    }
}
