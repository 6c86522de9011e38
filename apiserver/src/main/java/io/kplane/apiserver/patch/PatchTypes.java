package io.kplane.apiserver.patch;

import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.codec.MediaType;
import io.kplane.apiserver.errors.ApiError;

/** The {@link PatchType} a PATCH request's Content-Type names (415 UnsupportedMediaType otherwise). */
public final class PatchTypes {
    private PatchTypes() {}

    public static PatchType fromContentType(String contentType) {
        return PatchType.forMediaType(MediaType.parse(contentType).type())
                .orElseThrow(() -> ApiError.unsupportedPatchType(contentType));
    }
}
