package io.kplane.kubelet.stream;

import io.kplane.kubelet.runtime.ContainerRuntime;
import io.kplane.kubelet.stream.portforward.PodTarget;
import io.kplane.kubelet.stream.portforward.PortForwardHandler;
import java.io.IOException;

/**
 * Port forwarding's view of this node's pods: a pod with a running container is a target, reached at the
 * runtime's {@link ContainerRuntime#portForwardAddress} of that container (looked up again per
 * connection, so a restarted container is found).
 */
final class PodPortTargets {
    private PodPortTargets() {}

    static PortForwardHandler.PodTargets of(ContainerLookup lookup, ContainerRuntime runtime) {
        return (namespace, pod, uid) -> lookup.anyRunningContainer(namespace, pod, uid)
                .map(first -> new PodTarget() {
                    @Override
                    public String address() throws IOException {
                        String container = lookup.anyRunningContainer(namespace, pod, uid)
                                .orElseThrow(() -> new IOException("pod " + namespace + "/" + pod + " is not running"));
                        return runtime.portForwardAddress(container);
                    }

                    @Override
                    public String describe() {
                        return "pod " + pod + ", uid " + (uid == null ? "" : uid);
                    }
                });
    }
}
