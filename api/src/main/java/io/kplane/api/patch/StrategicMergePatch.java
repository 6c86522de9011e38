package io.kplane.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' strategic merge patch over JSON trees, with the list strategies of our types
 * ({@link PatchMeta}): lists with a merge key merge element by element, {@code metadata.finalizers}
 * merges as a set, other lists are replaced. Supports the directives {@code $patch}
 * (replace, delete, merge), {@code $deleteFromPrimitiveList/<field>}, {@code $setElementOrder/<field>}
 * and {@code $retainKeys}.
 */
public final class StrategicMergePatch {
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StrategicMergePatch() {}

    /** Returns the patched document; {@code target} is not modified. */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw PatchException.badRequest("strategic merge patch must be a JSON object");
        }
        ObjectNode original =
                target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : NODES.objectNode();
        JsonNode result = mergeMap(original, (ObjectNode) patch, "");
        return result == null ? NODES.objectNode() : result;
    }

    /** Merges {@code patch} into {@code original} (a copy we own). {@code null} means "delete this map". */
    private static ObjectNode mergeMap(ObjectNode original, ObjectNode patch, String parentField) {
        JsonNode directive = patch.get(PATCH);
        if (directive != null) {
            switch (directive.asText()) {
                case "replace" -> {
                    ObjectNode replaced = patch.deepCopy();
                    replaced.remove(PATCH);
                    return stripDirectives(replaced);
                }
                case "delete" -> {
                    return null;
                }
                case "merge" -> {}
                default -> throw PatchException.unprocessable(
                        "Unknown patch type: " + directive.asText() + " in map: " + patch);
            }
        }
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain != null) {
            if (!retain.isArray()) {
                throw PatchException.unprocessable("$retainKeys must be a list of strings");
            }
            List<String> keep = new ArrayList<>();
            retain.forEach(k -> keep.add(k.asText()));
            original.retain(keep);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(original, key.substring(DELETE_FROM_PRIMITIVE_LIST.length()), e.getValue());
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.startsWith("$")) {
                continue;
            }
            if (value.isNull()) {
                original.remove(key);
                continue;
            }
            JsonNode current = original.get(key);
            if (value.isObject()) {
                ObjectNode base = current != null && current.isObject() ? (ObjectNode) current : NODES.objectNode();
                ObjectNode merged = mergeMap(base, (ObjectNode) value, key);
                if (merged == null) {
                    original.remove(key);
                } else {
                    original.set(key, merged);
                }
            } else if (value.isArray()) {
                ArrayNode base = current != null && current.isArray() ? (ArrayNode) current : null;
                original.set(key, mergeList(base, (ArrayNode) value, parentField, key));
            } else {
                original.set(key, value.deepCopy());
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith(SET_ELEMENT_ORDER)) {
                String field = e.getKey().substring(SET_ELEMENT_ORDER.length());
                JsonNode list = original.get(field);
                if (list != null && list.isArray()) {
                    original.set(field, order((ArrayNode) list, e.getValue(), PatchMeta.mergeKey(parentField, field)));
                }
            }
        }
        return original;
    }

    private static ArrayNode mergeList(ArrayNode original, ArrayNode patch, String parentField, String field) {
        String mergeKey = PatchMeta.mergeKey(parentField, field);
        if (PatchMeta.isPrimitiveSet(parentField, field)) {
            ArrayNode out = original == null ? NODES.arrayNode() : original.deepCopy();
            for (JsonNode item : patch) {
                if (!contains(out, item)) {
                    out.add(item.deepCopy());
                }
            }
            return out;
        }
        if (mergeKey == null) {
            return stripDirectives(patch.deepCopy());
        }
        // [{"$patch": "replace"}, ...] replaces the whole list with the remaining elements.
        List<JsonNode> elements = new ArrayList<>();
        boolean replace = false;
        for (JsonNode item : patch) {
            if (item.isObject()
                    && item.size() == 1
                    && "replace".equals(item.path(PATCH).asText())) {
                replace = true;
            } else {
                elements.add(item);
            }
        }
        ArrayNode out = original == null || replace ? NODES.arrayNode() : original.deepCopy();
        for (JsonNode item : elements) {
            if (!item.isObject()) {
                throw PatchException.unprocessable(
                        "list " + field + " expects objects with merge key " + mergeKey + ", found " + item);
            }
            JsonNode keyValue = item.get(mergeKey);
            if (keyValue == null) {
                throw PatchException.unprocessable(
                        "map: " + item + " does not contain declared merge key: " + mergeKey);
            }
            int index = indexOf(out, mergeKey, keyValue);
            if ("delete".equals(item.path(PATCH).asText())) {
                if (index >= 0) {
                    out.remove(index);
                }
                continue;
            }
            if (index >= 0) {
                ObjectNode merged = mergeMap((ObjectNode) out.get(index), (ObjectNode) item, field);
                if (merged == null) {
                    out.remove(index);
                } else {
                    out.set(index, merged);
                }
            } else {
                ObjectNode added = mergeMap(NODES.objectNode(), (ObjectNode) item, field);
                if (added != null) {
                    out.add(added);
                }
            }
        }
        return out;
    }

    private static void deleteFromPrimitiveList(ObjectNode original, String field, JsonNode toDelete) {
        JsonNode list = original.get(field);
        if (list == null || !list.isArray() || !toDelete.isArray()) {
            return;
        }
        ArrayNode out = NODES.arrayNode();
        for (JsonNode item : list) {
            if (!contains((ArrayNode) toDelete, item)) {
                out.add(item);
            }
        }
        original.set(field, out);
    }

    /**
     * Orders {@code list} like {@code order} (a list of merge-key objects or primitives); elements
     * the order does not name keep their relative order after the named ones.
     */
    private static ArrayNode order(ArrayNode list, JsonNode order, String mergeKey) {
        if (!order.isArray()) {
            throw PatchException.unprocessable("$setElementOrder must be a list");
        }
        ArrayNode out = NODES.arrayNode();
        List<JsonNode> remaining = new ArrayList<>();
        list.forEach(remaining::add);
        for (JsonNode wanted : order) {
            for (Iterator<JsonNode> it = remaining.iterator(); it.hasNext(); ) {
                JsonNode item = it.next();
                boolean same = mergeKey == null
                        ? item.equals(wanted)
                        : item.path(mergeKey).equals(wanted.path(mergeKey));
                if (same) {
                    out.add(item);
                    it.remove();
                    break;
                }
            }
        }
        remaining.forEach(out::add);
        return out;
    }

    private static int indexOf(ArrayNode list, String mergeKey, JsonNode keyValue) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode candidate = list.get(i).get(mergeKey);
            if (candidate != null && sameKey(candidate, keyValue)) {
                return i;
            }
        }
        return -1;
    }

    /** Merge keys compare by value; a port given as "80" and 80 are the same key. */
    private static boolean sameKey(JsonNode a, JsonNode b) {
        return a.equals(b) || (a.isValueNode() && b.isValueNode() && a.asText().equals(b.asText()));
    }

    private static boolean contains(ArrayNode list, JsonNode item) {
        for (JsonNode n : list) {
            if (n.equals(item)) {
                return true;
            }
        }
        return false;
    }

    /** Directives inside replaced content mean nothing; drop them so they are not stored. */
    private static <T extends JsonNode> T stripDirectives(T node) {
        if (node.isObject()) {
            ObjectNode obj = (ObjectNode) node;
            List<String> drop = new ArrayList<>();
            obj.fieldNames().forEachRemaining(k -> {
                if (k.startsWith("$")) {
                    drop.add(k);
                }
            });
            obj.remove(drop);
            obj.forEach(StrategicMergePatch::stripDirectives);
        } else if (node.isArray()) {
            node.forEach(StrategicMergePatch::stripDirectives);
        }
        return node;
    }
}
