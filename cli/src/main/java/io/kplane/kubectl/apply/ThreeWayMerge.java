package io.kplane.kubectl.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * kubectl's client-side-apply patch: a strategic merge patch computed from three versions, the
 * last-applied configuration ({@code original}), the new manifest ({@code modified}) and the live
 * object ({@code current}). Fields that differ from the live object are set; fields the user removed
 * from the manifest since the last apply are deleted ({@code null}, or {@code $patch: delete} for an
 * element of a list merged by key); fields only others set are left alone.
 */
public final class ThreeWayMerge {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Lists merged by key in the strategic merge of the kinds we serve (the same table the server uses). */
    static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("env", "name"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("ports", "containerPort"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("tolerations", "key"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("conditions", "type"),
            Map.entry("hostAliases", "ip"),
            Map.entry("readinessGates", "conditionType"));

    private ThreeWayMerge() {}

    /** The patch; empty when applying {@code modified} would change nothing. */
    public static ObjectNode patch(JsonNode original, JsonNode modified, JsonNode current) {
        return diffObject(orEmpty(original), modified, orEmpty(current));
    }

    private static JsonNode orEmpty(JsonNode n) {
        return n == null || !n.isObject() ? NODES.objectNode() : n;
    }

    private static ObjectNode diffObject(JsonNode original, JsonNode modified, JsonNode current) {
        ObjectNode patch = NODES.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = modified.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            String key = e.getKey();
            JsonNode mod = e.getValue();
            JsonNode cur = current.get(key);
            JsonNode orig = original.get(key);
            if (mod.isObject() && cur != null && cur.isObject()) {
                ObjectNode sub = diffObject(orig == null ? NODES.objectNode() : orig, mod, cur);
                if (!sub.isEmpty()) {
                    patch.set(key, sub);
                }
            } else if (mod.isArray()
                    && cur != null
                    && cur.isArray()
                    && MERGE_KEYS.containsKey(key)
                    && allHaveKey(mod, MERGE_KEYS.get(key))) {
                ArrayNode sub = diffKeyedList(orig, (ArrayNode) mod, (ArrayNode) cur, MERGE_KEYS.get(key));
                if (!sub.isEmpty()) {
                    patch.set(key, sub);
                }
            } else if (!Objects.equals(mod, cur)) {
                patch.set(key, mod);
            }
        }
        Iterator<String> names = original.fieldNames();
        while (names.hasNext()) {
            String key = names.next();
            if (!modified.has(key) && current.has(key)) {
                patch.putNull(key);
            }
        }
        return patch;
    }

    private static boolean allHaveKey(JsonNode list, String mergeKey) {
        for (JsonNode e : list) {
            if (!e.isObject() || !e.has(mergeKey)) {
                return false;
            }
        }
        return true;
    }

    private static ArrayNode diffKeyedList(JsonNode original, ArrayNode modified, ArrayNode current, String mergeKey) {
        ArrayNode patch = NODES.arrayNode();
        for (JsonNode mod : modified) {
            JsonNode key = mod.get(mergeKey);
            JsonNode cur = find(current, mergeKey, key);
            JsonNode orig = original == null ? null : find(original, mergeKey, key);
            if (cur == null) {
                patch.add(mod);
                continue;
            }
            ObjectNode sub = diffObject(orig == null ? NODES.objectNode() : orig, mod, cur);
            if (!sub.isEmpty()) {
                ObjectNode element = NODES.objectNode();
                element.set(mergeKey, key);
                element.setAll(sub);
                patch.add(element);
            }
        }
        if (original != null && original.isArray()) {
            for (JsonNode orig : original) {
                JsonNode key = orig.get(mergeKey);
                if (key != null && find(modified, mergeKey, key) == null && find(current, mergeKey, key) != null) {
                    ObjectNode delete = NODES.objectNode();
                    delete.set(mergeKey, key);
                    delete.put("$patch", "delete");
                    patch.add(delete);
                }
            }
        }
        return patch;
    }

    private static JsonNode find(JsonNode list, String mergeKey, JsonNode key) {
        for (JsonNode e : list) {
            if (Objects.equals(e.get(mergeKey), key)) {
                return e;
            }
        }
        return null;
    }
}
