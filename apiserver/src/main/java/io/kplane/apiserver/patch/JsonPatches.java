package io.kplane.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import io.kplane.api.ResourceType;
import io.kplane.apiserver.errors.ApiError;

import java.util.Iterator;
import java.util.Map;

/**
 * RFC 6902 JSON Patch (zjsonpatch) and RFC 7386 JSON Merge Patch. Strategic merge patch and
 * server-side apply fall back to merge-patch semantics here, plus list merge by key for the
 * lists our types have (see {@link StrategicMerge}).
 */
public final class JsonPatches implements PatchApplier {

    @Override
    public ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode target, JsonNode patch) {
        JsonNode result = switch (patchType) {
            case JSON -> jsonPatch(target, patch);
            case MERGE -> mergePatch(target.deepCopy(), requireObject(patch));
            case STRATEGIC_MERGE, APPLY -> StrategicMerge.apply(target.deepCopy(), requireObject(patch));
        };
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

    private static JsonNode jsonPatch(ObjectNode target, JsonNode patch) {
        if (!patch.isArray()) {
            throw ApiError.badRequest("json patch must be an array of operations");
        }
        try {
            return JsonPatch.apply(patch, target);
        } catch (InvalidJsonPatchException e) {
            throw ApiError.badRequest("invalid json patch: " + e.getMessage());
        } catch (JsonPatchApplicationException e) {
            throw ApiError.invalidMessage(e.getMessage());
        } catch (RuntimeException e) {
            throw ApiError.badRequest("invalid json patch: " + e.getMessage());
        }
    }

    /** RFC 7386: objects merge recursively, {@code null} deletes, everything else replaces. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target instanceof ObjectNode on ? on : ((ObjectNode) patch).objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getValue().isNull()) {
                result.remove(f.getKey());
            } else {
                result.set(f.getKey(), mergePatch(result.get(f.getKey()), f.getValue()));
            }
        }
        return result;
    }
}
