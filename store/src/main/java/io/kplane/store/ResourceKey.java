package io.kplane.store;

/**
 * Where one object lives: {@code resource} is the API resource's storage name (e.g. {@code pods},
 * {@code jobs.batch}, {@code leases.coordination.k8s.io}), {@code namespace} is empty for
 * cluster-scoped objects.
 */
public record ResourceKey(String resource, String namespace, String name) {
    public ResourceKey {
        if (namespace == null) {
            namespace = "";
        }
    }
}
