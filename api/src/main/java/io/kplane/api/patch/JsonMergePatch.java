package io.kplane.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/** JSON merge patch (RFC 7386): objects merge recursively, {@code null} deletes, anything else replaces. */
public final class JsonMergePatch {
    private JsonMergePatch() {}

    /** Returns the patched document; {@code target} is not modified. */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            return patch == null ? target : patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), apply(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }
}
