package io.kplane.api.core;

/** One {@code envFrom} entry: all keys of a ConfigMap or Secret, each name prefixed with {@code prefix}. */
public record EnvFromSource(String prefix, ConfigMapEnvSource configMapRef, SecretEnvSource secretRef) {}
