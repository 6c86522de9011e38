package io.kplane.client;

/** The patch formats Kubernetes accepts, by Content-Type. */
public enum PatchType {
    /** RFC 7386 JSON merge patch. */
    MERGE("application/merge-patch+json"),
    /** RFC 6902 JSON patch (a list of operations). */
    JSON("application/json-patch+json"),
    /** Kubernetes strategic merge patch (lists merged by key). */
    STRATEGIC("application/strategic-merge-patch+json"),
    /** Server-side apply (needs a field manager). */
    APPLY("application/apply-patch+yaml");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }
}
