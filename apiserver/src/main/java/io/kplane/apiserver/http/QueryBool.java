package io.kplane.apiserver.http;

/**
 * A boolean query parameter ({@code watch}, {@code follow}, {@code allowWatchBookmarks},
 * {@code orphanDependents}): true for exactly the spellings Go's {@code strconv.ParseBool} reads as
 * true ({@code 1}, {@code t}, {@code T}, {@code true}, {@code True}, {@code TRUE}), false otherwise.
 * One reading for the request gate (is this a long-running request?) and the handlers (serve a watch?),
 * so the two can never disagree.
 */
public final class QueryBool {
    private QueryBool() {}

    public static boolean isTrue(String value) {
        if (value == null) {
            return false;
        }
        return switch (value) {
            case "1", "t", "T", "true", "True", "TRUE" -> true;
            default -> false;
        };
    }
}
