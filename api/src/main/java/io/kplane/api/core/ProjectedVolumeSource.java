package io.kplane.api.core;

import java.util.List;

/** Several sources (ConfigMaps, Secrets, downward API, token) projected into one directory. */
public record ProjectedVolumeSource(List<VolumeProjection> sources, Integer defaultMode) {
    public List<VolumeProjection> sourcesOrEmpty() {
        return sources == null ? List.of() : sources;
    }
}
