package io.kplane.api;

import io.kplane.api.meta.KubeObject;
import java.util.List;

/**
 * One REST resource the API serves: what discovery lists, what the CLIs resolve names against,
 * and where the server keeps it.
 *
 * @param group         API group, {@code ""} for the core group
 * @param resource      plural lower-case name used in URLs ({@code jobs})
 * @param listKind      kind of a list response ({@code JobList})
 * @param subresources  e.g. {@code status}, {@code log}, {@code binding}
 * @param javaType      the record this resource decodes to
 */
public record ResourceType(
        String group,
        String version,
        String resource,
        String kind,
        String listKind,
        String singular,
        boolean namespaced,
        List<String> shortNames,
        List<String> categories,
        List<String> verbs,
        List<String> subresources,
        Class<? extends KubeObject> javaType) {

    public static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public ResourceType {
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        verbs = List.copyOf(verbs);
        subresources = List.copyOf(subresources);
    }

    /** {@code v1} for the core group, {@code group/version} otherwise. */
    public String apiVersion() {
        return isCoreGroup() ? version : group + "/" + version;
    }

    /** The name the store keys this resource by: {@code pods}, {@code jobs.batch}. */
    public String storageName() {
        return isCoreGroup() ? resource : resource + "." + group;
    }

    public boolean isCoreGroup() {
        return group.isEmpty();
    }

    public boolean hasSubresource(String name) {
        return subresources.contains(name);
    }

    /** The URL prefix of this resource's group version: {@code /api/v1} or {@code /apis/batch/v1}. */
    public String groupVersionPath() {
        return isCoreGroup() ? "/api/" + version : "/apis/" + group + "/" + version;
    }
}
