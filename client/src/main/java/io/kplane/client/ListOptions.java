package io.kplane.client;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Query parameters of a list or watch. Every field is optional (null = not sent).
 *
 * Copies with one field changed ({@code withLimit(...)}) come from record-builder, as for the api model.
 *
 * @param continueToken the {@code continue} token of the previous page
 */
@RecordBuilder
public record ListOptions(
        String labelSelector,
        String fieldSelector,
        Long limit,
        String continueToken,
        String resourceVersion,
        String resourceVersionMatch,
        Long timeoutSeconds,
        Boolean allowWatchBookmarks)
        implements ListOptionsBuilder.With {

    public static final ListOptions NONE = new ListOptions(null, null, null, null, null, null, null, null);

    public static ListOptions none() {
        return NONE;
    }

    public static ListOptions labelSelector(String selector) {
        return NONE.withLabelSelector(selector);
    }

    public static ListOptions fieldSelector(String selector) {
        return NONE.withFieldSelector(selector);
    }

    /** The query parameters in Kubernetes spelling, omitting unset ones. */
    public Map<String, String> toQuery() {
        Map<String, String> q = new LinkedHashMap<>();
        put(q, "labelSelector", labelSelector);
        put(q, "fieldSelector", fieldSelector);
        put(q, "limit", limit);
        put(q, "continue", continueToken);
        put(q, "resourceVersion", resourceVersion);
        put(q, "resourceVersionMatch", resourceVersionMatch);
        put(q, "timeoutSeconds", timeoutSeconds);
        put(q, "allowWatchBookmarks", allowWatchBookmarks);
        return q;
    }

    private static void put(Map<String, String> q, String name, Object value) {
        if (value != null && !(value instanceof String s && s.isEmpty())) {
            q.put(name, value.toString());
        }
    }
}
