package io.kplane.kubelet.runtime;

/**
 * A container could not be started. Kubernetes shows two kinds of failure differently, and so do we:
 * a failure before the container exists leaves it <em>waiting</em> with {@link #reason()} (e.g.
 * ErrImagePull, CreateContainerConfigError) and is retried; a failure to execute its process makes a
 * <em>terminated</em> attempt (reason StartError, exit code 128) that counts like a failed run.
 */
public final class ContainerStartException extends Exception {
    public static final String ERR_IMAGE_PULL = "ErrImagePull";
    public static final String ERR_IMAGE_NEVER_PULL = "ErrImageNeverPull";
    public static final String CREATE_CONFIG_ERROR = "CreateContainerConfigError";
    public static final String CREATE_ERROR = "CreateContainerError";
    public static final String START_ERROR = "StartError";

    public static final String CONTAINER_CREATING = "ContainerCreating";

    private final String reason;
    private final boolean terminated;
    private final String eventReason;

    private ContainerStartException(String reason, String message, boolean terminated, Throwable cause) {
        this(reason, message, terminated, cause, "Failed");
    }

    private ContainerStartException(
            String reason, String message, boolean terminated, Throwable cause, String eventReason) {
        super(message, cause);
        this.reason = reason;
        this.terminated = terminated;
        this.eventReason = eventReason;
    }

    /**
     * A pod volume could not be set up: the container keeps waiting ContainerCreating and a FailedMount
     * event says why ({@code MountVolume.SetUp failed for volume "v" : ...}), as the kubelet's volume
     * manager reports it.
     */
    public static ContainerStartException mountFailed(String message) {
        return new ContainerStartException(CONTAINER_CREATING, message, false, null, "FailedMount");
    }

    public static ContainerStartException waiting(String reason, String message) {
        return new ContainerStartException(reason, message, false, null);
    }

    public static ContainerStartException waiting(String reason, String message, Throwable cause) {
        return new ContainerStartException(reason, message, false, cause);
    }

    public static ContainerStartException startError(String message) {
        return new ContainerStartException(START_ERROR, message, true, null);
    }

    public String reason() {
        return reason;
    }

    /** The reason of the Warning event about this failure ({@code Failed}, {@code FailedMount}). */
    public String eventReason() {
        return eventReason;
    }

    /** True when the attempt counts as a run that exited with code 128. */
    public boolean terminated() {
        return terminated;
    }
}
