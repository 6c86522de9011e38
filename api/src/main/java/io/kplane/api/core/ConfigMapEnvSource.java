package io.kplane.api.core;

/** {@code envFrom.configMapRef}: every key of a ConfigMap as a variable. */
public record ConfigMapEnvSource(String name, Boolean optional) {
    public boolean isOptional() {
        return Boolean.TRUE.equals(optional);
    }
}
