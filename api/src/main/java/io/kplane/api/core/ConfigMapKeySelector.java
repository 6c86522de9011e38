package io.kplane.api.core;

/** A key of a ConfigMap, for an environment variable ({@code valueFrom.configMapKeyRef}). */
public record ConfigMapKeySelector(String name, String key, Boolean optional) {
    public boolean isOptional() {
        return Boolean.TRUE.equals(optional);
    }
}
