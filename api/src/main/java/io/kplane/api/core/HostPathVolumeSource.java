package io.kplane.api.core;

/** core/v1 HostPathVolumeSource. */
public record HostPathVolumeSource(String path, String type) {}
