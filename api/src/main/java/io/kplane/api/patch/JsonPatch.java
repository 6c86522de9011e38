package io.kplane.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;

/** JSON patch (RFC 6902) through zjsonpatch, with failures mapped to {@link PatchException}. */
public final class JsonPatch {
    private JsonPatch() {}

    /** Returns the patched document; {@code target} is not modified. */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isArray()) {
            throw PatchException.badRequest("json patch must be an array of operations");
        }
        // zjsonpatch ignores removing a missing member; Kubernetes (and RFC 6902) reject it.
        JsonNode current = target;
        for (JsonNode op : patch) {
            String name = op.path("op").asText();
            String path = op.path("path").asText();
            if ((name.equals("remove") || name.equals("replace"))
                    && !path.isEmpty()
                    && current.at(pointer(path)).isMissingNode()) {
                throw new PatchException(
                        422, "the json patch could not be applied: unable to " + name + " nonexistent key: " + path);
            }
            current = applyOne(current, op);
        }
        return current;
    }

    private static com.fasterxml.jackson.core.JsonPointer pointer(String path) {
        try {
            return com.fasterxml.jackson.core.JsonPointer.compile(path);
        } catch (IllegalArgumentException e) {
            throw new PatchException(400, "invalid json patch: bad path " + path, e);
        }
    }

    private static JsonNode applyOne(JsonNode target, JsonNode op) {
        JsonNode patch = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .arrayNode()
                .add(op);
        try {
            // No compatibility flags: strict RFC 6902, so removing a missing path fails as in Kubernetes.
            return com.flipkart.zjsonpatch.JsonPatch.apply(
                    patch, target, java.util.EnumSet.noneOf(com.flipkart.zjsonpatch.CompatibilityFlags.class));
        } catch (InvalidJsonPatchException e) {
            throw new PatchException(400, "invalid json patch: " + e.getMessage(), e);
        } catch (JsonPatchApplicationException e) {
            throw new PatchException(422, "the json patch could not be applied: " + e.getMessage(), e);
        }
    }
}
