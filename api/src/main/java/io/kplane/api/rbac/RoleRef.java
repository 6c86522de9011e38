package io.kplane.api.rbac;

/** rbac/v1 RoleRef. */
public record RoleRef(String apiGroup, String kind, String name) {}
