package io.kplane.apiserver.patch;

import io.kplane.apiserver.codec.MediaType;
import io.kplane.apiserver.errors.ApiError;

/** The patch formats the API accepts, by Content-Type. */
public enum PatchType {
    JSON("application/json-patch+json"),
    MERGE("application/merge-patch+json"),
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    APPLY("application/apply-patch+yaml");

    private final String mediaType;

    PatchType(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    public static PatchType fromContentType(String contentType) {
        String type = MediaType.parse(contentType).type();
        for (PatchType t : values()) {
            if (t.mediaType.equals(type)) {
                return t;
            }
        }
        throw ApiError.unsupportedPatchType(contentType);
    }
}
