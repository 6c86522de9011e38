package io.kplane.api.core;

/** Where a container sees a pod volume: {@code mountPath}, optionally only its {@code subPath}, optionally read-only. */
public record VolumeMount(
        String name,
        String mountPath,
        String subPath,
        String subPathExpr,
        Boolean readOnly,
        String mountPropagation,
        String recursiveReadOnly) {
    public boolean isReadOnly() {
        return Boolean.TRUE.equals(readOnly);
    }
}
