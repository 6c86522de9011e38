package io.kplane.kubelet.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** A started container attempt. */
public interface RunningContainer {

    /** {@code <runtime>://<id>}, as Kubernetes shows in {@code containerStatuses[].containerID}. */
    String containerId();

    Instant startedAt();

    /** Completes when the container has exited and its output has been written to the log. */
    CompletableFuture<ExitStatus> exited();

    /** SIGTERM (to the whole process group), then SIGKILL once {@code grace} has passed. Returns at once. */
    void stop(Duration grace);
}
