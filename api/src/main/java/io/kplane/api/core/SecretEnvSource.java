package io.kplane.api.core;

/** {@code envFrom.secretRef}: every key of a Secret as a variable. */
public record SecretEnvSource(String name, Boolean optional) {
    public boolean isOptional() {
        return Boolean.TRUE.equals(optional);
    }
}
