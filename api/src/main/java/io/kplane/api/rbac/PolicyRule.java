package io.kplane.api.rbac;

import java.util.List;

/** rbac/v1 PolicyRule. */
public record PolicyRule(
        List<String> verbs,
        List<String> apiGroups,
        List<String> resources,
        List<String> resourceNames,
        List<String> nonResourceURLs) {}
