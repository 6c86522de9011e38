package io.kplane.api.core;

import java.util.List;

/** A volume holding pod fields as files. */
public record DownwardAPIVolumeSource(List<DownwardAPIVolumeFile> items, Integer defaultMode) {
    public List<DownwardAPIVolumeFile> itemsOrEmpty() {
        return items == null ? List.of() : items;
    }
}
