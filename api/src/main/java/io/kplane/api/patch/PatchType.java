package io.kplane.api.patch;

import java.util.Optional;

/**
 * The patch formats Kubernetes accepts, by Content-Type (apimachinery's {@code types.PatchType}):
 * the one enum the API server and the client share.
 */
public enum PatchType {
    /** RFC 6902 JSON patch (a list of operations). */
    JSON("application/json-patch+json"),
    /** RFC 7386 JSON merge patch. */
    MERGE("application/merge-patch+json"),
    /** Kubernetes strategic merge patch (lists merged by key). */
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    /** Server-side apply (needs a field manager). */
    APPLY("application/apply-patch+yaml");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    /** The media type, e.g. {@code application/merge-patch+json}. */
    public String contentType() {
        return contentType;
    }

    /** The patch type of a bare media type (no parameters), if it is one. */
    public static Optional<PatchType> forMediaType(String mediaType) {
        for (PatchType t : values()) {
            if (t.contentType.equals(mediaType)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
