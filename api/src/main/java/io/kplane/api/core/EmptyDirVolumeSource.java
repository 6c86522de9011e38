package io.kplane.api.core;

/** A scratch directory that lives as long as the pod; {@code medium: Memory} makes it a tmpfs. */
public record EmptyDirVolumeSource(String medium, String sizeLimit) {
    public static final String MEDIUM_MEMORY = "Memory";
}
