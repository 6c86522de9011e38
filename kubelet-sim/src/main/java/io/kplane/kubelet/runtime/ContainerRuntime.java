package io.kplane.kubelet.runtime;

import java.time.Instant;
import java.util.Optional;

/**
 * Runs containers for the pod workers. Implementations: {@link ProcessRuntime} (host processes) and
 * {@link DockerRuntime} (Docker Engine API). Methods may block; pod workers call them on their own
 * threads.
 */
public interface ContainerRuntime extends AutoCloseable {

    /** {@code process} or {@code docker}: the scheme of container IDs, e.g. {@code docker://<id>}. */
    String type();

    /** For {@code nodeInfo.containerRuntimeVersion}, e.g. {@code docker://24.0.0}. */
    String version();

    /** Makes the image available as the pull policy says (the process runtime only records it). */
    void ensureImage(ContainerLaunch launch) throws ContainerStartException;

    /** Creates and starts the container; output goes to {@code launch.log()}. */
    RunningContainer start(ContainerLaunch launch) throws ContainerStartException;

    /**
     * Follows again a container that an earlier kubelet process started: the docker runtime re-attaches
     * (also to one that has exited meanwhile, to read its exit code); the process runtime cannot
     * re-attach to host processes, kills what is left of one and returns empty.
     *
     * @param containerId the ID as persisted ({@code docker://...}, {@code process://...}), or null
     *                    when the kubelet died between deciding to start and recording the start
     */
    Optional<RunningContainer> reattach(ContainerLaunch launch, String containerId, Instant startedAt);

    /**
     * True if the runtime can tell that a container was never created (the engine keeps named, labelled
     * containers); false for host processes, where an unrecorded start must be presumed to have run.
     */
    default boolean tracksContainers() {
        return false;
    }

    /**
     * Gets rid of a container of a pod that no longer exists (deleted while the kubelet was down): kills
     * what still runs of it and removes it.
     */
    void discard(String containerId, Instant startedAt);

    /**
     * Runs {@code spec.command()} in the running container {@code containerId} (the pod's working
     * directory, environment and mount namespace), or, with an empty command, attaches to the
     * container's own stdin/stdout/stderr. Used by the kubelet's streaming server.
     *
     * @throws ExecNotSupportedException the container is not running here, or the runtime cannot
     */
    default ExecSession exec(String containerId, ExecSpec spec) throws ExecNotSupportedException {
        throw new ExecNotSupportedException("the " + type() + " runtime does not support exec");
    }

    /**
     * The address the running container's ports listen on, as the kubelet reaches them for port
     * forwarding: the host's loopback for host processes (they share the node's network).
     *
     * @throws java.io.IOException the container is not running (any more)
     */
    default String portForwardAddress(String containerId) throws java.io.IOException {
        return "127.0.0.1";
    }

    /** Removes a finished container's leftovers (no-op for host processes). */
    void remove(String containerId);

    @Override
    void close();
}
