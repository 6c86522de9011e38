package io.kplane.apiserver.ui;

/**
 * Which {@code /ui} paths the request gate treats specially. The page itself (HTML, scripts, styles)
 * is static code with no cluster data, so it is served without a token, as Kubernetes Dashboard serves
 * its login page; everything under {@code /ui/api/} carries cluster data and goes through the API's
 * own authentication. Lens streams are long-running like watches, so the in-flight limit skips them.
 */
public final class UiPaths {
    public static final String ROOT = "/ui";
    public static final String API_PREFIX = "/ui/api/";

    private UiPaths() {}

    /** The UI's static files: readable without a token. */
    public static boolean isPublicAsset(String path) {
        return (path.equals(ROOT) || path.startsWith(ROOT + "/"))
                && !path.startsWith(API_PREFIX)
                && !path.equals("/ui/api");
    }

    /** A proxied lens event stream: long-running, exempt from the in-flight limit like a watch. */
    public static boolean isStream(String path) {
        return path.startsWith(API_PREFIX) && path.endsWith("/stream");
    }
}
