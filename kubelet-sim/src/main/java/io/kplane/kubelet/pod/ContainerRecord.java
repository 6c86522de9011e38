package io.kplane.kubelet.pod;

import io.kplane.api.core.ContainerStateTerminated;
import java.time.Instant;

/**
 * What the kubelet knows about one container of a pod, persisted before every start so that a
 * restarted kubelet never starts one attempt twice. Mutable: only its pod worker touches it.
 */
public final class ContainerRecord {
    public String name;
    public boolean init;
    /** Starts begun; persisted (with {@link #starting}) before the runtime is asked to start one. */
    public int attempts;
    /** True between persisting a start and recording its container ID. */
    public boolean starting;

    public boolean running;
    public String containerId;
    public String imageId;
    public Instant startedAt;
    /** How the latest attempt ended (null while running or before the first start). */
    public ContainerStateTerminated terminated;
    /** How the attempt before the latest one ended. */
    public ContainerStateTerminated lastTerminated;
    /** Why the container is not running (ErrImagePull, CreateContainerConfigError, ...), or null. */
    public String waitingReason;

    public String waitingMessage;
    /** Failed image pulls in a row (for ImagePullBackOff). */
    public int pullFailures;
    /** restartCount at which the crash-loop back-off last started over. */
    public int backoffOrigin;

    public Instant pullRetryAt;

    public ContainerRecord() {}

    public ContainerRecord(String name, boolean init) {
        this.name = name;
        this.init = init;
    }

    public int restartCount() {
        return Math.max(0, attempts - 1);
    }

    public boolean succeeded() {
        return !running && terminated != null && terminated.exitCode() != null && terminated.exitCode() == 0;
    }

    public boolean failed() {
        return !running && terminated != null && (terminated.exitCode() == null || terminated.exitCode() != 0);
    }
}
