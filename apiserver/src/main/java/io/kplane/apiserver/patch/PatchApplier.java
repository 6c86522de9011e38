package io.kplane.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.patch.PatchType;
import io.kplane.apiserver.errors.ApiError;

/** Applies a patch of one {@link PatchType} to an object. */
public interface PatchApplier {

    /**
     * Returns the patched copy of {@code target} ({@code target} itself is not modified). A patch
     * that cannot be applied throws {@link ApiError} (400 for a malformed patch, 422 when it does not
     * apply to the object).
     */
    ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode target, JsonNode patch) throws ApiError;
}
