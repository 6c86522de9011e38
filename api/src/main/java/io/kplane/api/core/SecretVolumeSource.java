package io.kplane.api.core;

import java.util.List;

/** A volume holding the keys of a Secret as files; {@code secretName} names it (unlike ConfigMap's {@code name}). */
public record SecretVolumeSource(String secretName, List<KeyToPath> items, Integer defaultMode, Boolean optional) {
    public List<KeyToPath> itemsOrEmpty() {
        return items == null ? List.of() : items;
    }
}
