package io.kplane.kubelet.stream.portforward;

import java.io.IOException;

/** The pod whose ports are forwarded: where they listen, and how the kubelet's errors name it. */
public interface PodTarget {
    /**
     * The address the pod's ports listen on, as seen from the kubelet: {@code 127.0.0.1} for the process
     * runtime (host network), the container's IP for the docker runtime. Called per connection, on a
     * pump thread (it may ask the engine).
     *
     * @throws IOException the pod is no longer running here; the message goes to the client
     */
    String address() throws IOException;

    /** For error messages, as the kubelet says it: {@code pod web, uid 1f2e...}. */
    String describe();
}
