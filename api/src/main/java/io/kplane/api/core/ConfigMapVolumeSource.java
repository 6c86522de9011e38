package io.kplane.api.core;

import java.util.List;

/** A volume holding the keys of a ConfigMap as files ({@code items} selects and renames them). */
public record ConfigMapVolumeSource(String name, List<KeyToPath> items, Integer defaultMode, Boolean optional) {
    public List<KeyToPath> itemsOrEmpty() {
        return items == null ? List.of() : items;
    }
}
