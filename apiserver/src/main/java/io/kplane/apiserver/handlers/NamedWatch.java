package io.kplane.apiserver.handlers;

import io.kplane.api.ResourceType;
import io.kplane.api.selector.FieldQuery;
import io.kplane.api.selector.SelectorException;
import io.kplane.apiserver.errors.ApiError;

/**
 * {@code GET .../things/NAME?watch=true}: a watch on one object's path, as {@code kubectl get pod x -w}
 * and some clients send it. kube-apiserver (v1.32 {@code handlers.ListResource}) serves it as a watch
 * of the collection with {@code fieldSelector=metadata.name=NAME}; a field selector given as well must
 * itself require exactly that name, otherwise the request is a 400.
 */
final class NamedWatch {
    private static final String NAME_FIELD = "metadata.name";

    private NamedWatch() {}

    /** The field selector the watch of {@code name} runs with. */
    static String fieldSelector(ResourceType type, String name, String requested) {
        if (requested == null || requested.isBlank()) {
            return NAME_FIELD + "=" + name;
        }
        String selected;
        try {
            selected =
                    FieldQuery.parse(requested, type).requiredValue(NAME_FIELD).orElse(null);
        } catch (SelectorException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        if (!name.equals(selected)) {
            throw ApiError.badRequest("fieldSelector metadata.name doesn't match requested name");
        }
        return requested;
    }
}
