package io.kplane.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.patch.JsonMergePatch;
import io.kplane.api.patch.JsonPatch;
import io.kplane.api.patch.PatchException;
import io.kplane.api.patch.PatchType;
import io.kplane.api.patch.StrategicMergePatch;
import io.kplane.apiserver.errors.ApiError;

/**
 * The api module's patch implementations: RFC 6902 JSON Patch, RFC 7386 merge patch, and strategic
 * merge patch (also used for server-side apply bodies, without field ownership).
 */
public final class JsonPatches implements PatchApplier {

    @Override
    public ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode target, JsonNode patch) {
        JsonNode result;
        try {
            result = switch (patchType) {
                case JSON -> JsonPatch.apply(target.deepCopy(), patch);
                case MERGE -> JsonMergePatch.apply(target.deepCopy(), requireObject(patch));
                case STRATEGIC_MERGE, APPLY -> StrategicMergePatch.apply(target, requireObject(patch));
            };
        } catch (PatchException e) {
            throw e.code() == 422 ? ApiError.invalidMessage(e.getMessage()) : ApiError.badRequest(e.getMessage());
        }
        if (!(result instanceof ObjectNode on)) {
            throw ApiError.invalidMessage("the patched object is not a JSON object");
        }
        return on;
    }

    private static ObjectNode requireObject(JsonNode patch) {
        if (!(patch instanceof ObjectNode on)) {
            throw ApiError.badRequest("the patch must be a JSON object");
        }
        return on;
    }
}
