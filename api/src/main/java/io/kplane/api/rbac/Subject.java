package io.kplane.api.rbac;

/** rbac/v1 Subject. */
public record Subject(String kind, String apiGroup, String name, String namespace) {}
