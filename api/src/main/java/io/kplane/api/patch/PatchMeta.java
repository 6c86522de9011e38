package io.kplane.api.patch;

import java.util.Map;
import java.util.Set;

/**
 * The patch strategy of each list field of our types, as Kubernetes declares it with
 * {@code patchStrategy}/{@code patchMergeKey} tags. Lists not named here are replaced whole.
 */
final class PatchMeta {
    /** List fields merged element by element, matched by the given key. */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("env", "name"),
            Map.entry("ports", "containerPort"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("volumeDevices", "devicePath"),
            Map.entry("conditions", "type"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("hostAliases", "ip"),
            Map.entry("podIPs", "ip"),
            Map.entry("hostIPs", "ip"),
            Map.entry("addresses", "type"),
            Map.entry("schedulingGates", "name"),
            Map.entry("resourceClaims", "name"));

    /** Lists of primitives merged as sets. */
    private static final Set<String> PRIMITIVE_SETS = Set.of("finalizers");

    private PatchMeta() {}

    /** The merge key of list field {@code field} under {@code parent}, or {@code null} to replace. */
    static String mergeKey(String parent, String field) {
        return MERGE_KEYS.get(field);
    }

    /** Whether list field {@code field} under {@code parent} is a merged set of primitives. */
    static boolean isPrimitiveSet(String parent, String field) {
        // Only metadata.finalizers is a merged set; spec.finalizers of a Namespace is replaced.
        return PRIMITIVE_SETS.contains(field) && "metadata".equals(parent);
    }
}
