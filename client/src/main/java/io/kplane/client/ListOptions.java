package io.kplane.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Query parameters of a list or watch. Every field is optional (null = not sent).
 *
 * @param continueToken the {@code continue} token of the previous page
 */
public record ListOptions(
        String labelSelector,
        String fieldSelector,
        Long limit,
        String continueToken,
        String resourceVersion,
        String resourceVersionMatch,
        Long timeoutSeconds,
        Boolean allowWatchBookmarks) {

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

    public ListOptions withLabelSelector(String v) {
        return new ListOptions(v, fieldSelector, limit, continueToken, resourceVersion, resourceVersionMatch, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withFieldSelector(String v) {
        return new ListOptions(labelSelector, v, limit, continueToken, resourceVersion, resourceVersionMatch, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withLimit(Long v) {
        return new ListOptions(labelSelector, fieldSelector, v, continueToken, resourceVersion, resourceVersionMatch, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withContinueToken(String v) {
        return new ListOptions(labelSelector, fieldSelector, limit, v, resourceVersion, resourceVersionMatch, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withResourceVersion(String v) {
        return new ListOptions(labelSelector, fieldSelector, limit, continueToken, v, resourceVersionMatch, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withResourceVersionMatch(String v) {
        return new ListOptions(labelSelector, fieldSelector, limit, continueToken, resourceVersion, v, timeoutSeconds, allowWatchBookmarks);
    }

    public ListOptions withTimeoutSeconds(Long v) {
        return new ListOptions(labelSelector, fieldSelector, limit, continueToken, resourceVersion, resourceVersionMatch, v, allowWatchBookmarks);
    }

    public ListOptions withAllowWatchBookmarks(Boolean v) {
        return new ListOptions(labelSelector, fieldSelector, limit, continueToken, resourceVersion, resourceVersionMatch, timeoutSeconds, v);
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
