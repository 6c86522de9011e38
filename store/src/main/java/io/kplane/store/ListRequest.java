package io.kplane.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Predicate;

/**
 * A list query. {@code namespace} null means all namespaces. {@code filter} (label/field
 * selectors, applied by the caller's predicate) is evaluated before {@code limit} is applied, so a
 * page holds up to {@code limit} matching items, as in Kubernetes. {@code limit} 0 means no limit.
 */
public record ListRequest(
        String resource, String namespace, Predicate<ObjectNode> filter, int limit, String continueToken) {
    public static ListRequest all(String resource, String namespace) {
        return new ListRequest(resource, namespace, o -> true, 0, null);
    }
}
