package io.kplane.api.core;

/** A key of a Secret, for an environment variable ({@code valueFrom.secretKeyRef}). */
public record SecretKeySelector(String name, String key, Boolean optional) {
    public boolean isOptional() {
        return Boolean.TRUE.equals(optional);
    }
}
