package io.kplane.apiserver.http;

import io.kplane.api.ResourceType;

/**
 * What a resource request addresses, parsed from its path and method (like Kubernetes'
 * {@code RequestInfo}). {@code namespace} is null for cluster-scoped paths and for lists across all
 * namespaces; {@code name} and {@code subresource} are null when absent.
 */
public record RequestInfo(ResourceType resource, String namespace, String name, String subresource) {

    public boolean isCollection() {
        return name == null;
    }
}
