package io.kplane.api.core;

/** core/v1 LocalVolumeSource. */
public record LocalVolumeSource(String path, String fsType) {}
