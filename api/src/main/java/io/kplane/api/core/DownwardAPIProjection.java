package io.kplane.api.core;

import java.util.List;

/** The downward API part of a projected volume. */
public record DownwardAPIProjection(List<DownwardAPIVolumeFile> items) {}
