package io.kplane.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Strategic merge patch for the lists kplane's types have: lists of objects with a merge key
 * ({@code containers} by name, {@code conditions} by type, ...) merge element by element, lists of
 * strings with merge strategy ({@code finalizers}) union, every other list is replaced. Supports the
 * {@code $patch: delete|replace} element directive and {@code $deleteFromPrimitiveList/<field>};
 * {@code $setElementOrder/<field>} and {@code $retainKeys} are accepted and ignored.
 */
final class StrategicMerge {
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"), Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"), Map.entry("env", "name"), Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"), Map.entry("ports", "containerPort"),
            Map.entry("conditions", "type"), Map.entry("ownerReferences", "uid"),
            Map.entry("imagePullSecrets", "name"), Map.entry("addresses", "type"),
            Map.entry("containerStatuses", "name"), Map.entry("initContainerStatuses", "name"),
            Map.entry("hostAliases", "ip"), Map.entry("tolerations", "key"));
    private static final List<String> MERGED_PRIMITIVE_LISTS = List.of("finalizers");

    private StrategicMerge() {
    }

    static ObjectNode apply(ObjectNode target, ObjectNode patch) {
        return merge(target, patch);
    }

    private static ObjectNode merge(ObjectNode target, ObjectNode patch) {
        JsonNode directive = patch.get("$patch");
        if (directive != null && "replace".equals(directive.asText())) {
            ObjectNode replaced = patch.deepCopy();
            replaced.remove("$patch");
            return replaced;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String key = f.getKey();
            JsonNode value = f.getValue();
            if (key.equals("$patch") || key.equals("$retainKeys") || key.startsWith("$setElementOrder/")) {
                continue;
            }
            if (key.startsWith("$deleteFromPrimitiveList/")) {
                String field = key.substring("$deleteFromPrimitiveList/".length());
                if (target.get(field) instanceof ArrayNode arr && value.isArray()) {
                    removeAll(arr, value);
                }
                continue;
            }
            JsonNode existing = target.get(key);
            if (value.isNull()) {
                target.remove(key);
            } else if (value.isObject()) {
                ObjectNode base = existing instanceof ObjectNode on ? on : target.objectNode();
                target.set(key, merge(base, (ObjectNode) value));
            } else if (value.isArray() && existing instanceof ArrayNode arr && MERGE_KEYS.containsKey(key)) {
                target.set(key, mergeByKey(arr, (ArrayNode) value, MERGE_KEYS.get(key)));
            } else if (value.isArray() && existing instanceof ArrayNode arr && MERGED_PRIMITIVE_LISTS.contains(key)) {
                for (JsonNode v : value) {
                    if (!contains(arr, v)) {
                        arr.add(v.deepCopy());
                    }
                }
            } else {
                target.set(key, stripDirectives(value.deepCopy()));
            }
        }
        return target;
    }

    private static ArrayNode mergeByKey(ArrayNode target, ArrayNode patch, String mergeKey) {
        ArrayNode result = target.deepCopy();
        for (JsonNode element : patch) {
            if (!(element instanceof ObjectNode patchElement) || !patchElement.has(mergeKey)) {
                // an element without its merge key cannot be matched: the whole list is replaced
                return (ArrayNode) stripDirectives(patch.deepCopy());
            }
            JsonNode keyValue = patchElement.get(mergeKey);
            int index = indexOf(result, mergeKey, keyValue);
            JsonNode directive = patchElement.get("$patch");
            if (directive != null && "delete".equals(directive.asText())) {
                if (index >= 0) {
                    result.remove(index);
                }
            } else if (index >= 0) {
                result.set(index, merge((ObjectNode) result.get(index), patchElement));
            } else {
                result.add(stripDirectives(patchElement.deepCopy()));
            }
        }
        return result;
    }

    private static int indexOf(ArrayNode list, String key, JsonNode value) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            if (e.isObject() && value.equals(e.get(key))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(ArrayNode arr, JsonNode v) {
        for (JsonNode e : arr) {
            if (e.equals(v)) {
                return true;
            }
        }
        return false;
    }

    private static void removeAll(ArrayNode arr, JsonNode values) {
        List<Integer> drop = new ArrayList<>();
        for (int i = 0; i < arr.size(); i++) {
            if (contains((ArrayNode) values, arr.get(i))) {
                drop.add(i);
            }
        }
        for (int i = drop.size() - 1; i >= 0; i--) {
            arr.remove(drop.get(i));
        }
    }

    private static JsonNode stripDirectives(JsonNode node) {
        if (node instanceof ObjectNode on) {
            on.remove("$patch");
            on.remove("$retainKeys");
            List<String> names = new ArrayList<>();
            on.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (n.startsWith("$")) {
                    on.remove(n);
                } else {
                    stripDirectives(on.get(n));
                }
            }
        } else if (node instanceof ArrayNode arr) {
            arr.forEach(StrategicMerge::stripDirectives);
        }
        return node;
    }
}
