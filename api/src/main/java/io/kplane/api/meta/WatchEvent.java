package io.kplane.api.meta;

/** One line of a watch stream: {@code {"type":"ADDED","object":{...}}}. */
public record WatchEvent<T>(String type, T object) {
    public static final String ADDED = "ADDED";
    public static final String MODIFIED = "MODIFIED";
    public static final String DELETED = "DELETED";
    public static final String BOOKMARK = "BOOKMARK";
    public static final String ERROR = "ERROR";
}
