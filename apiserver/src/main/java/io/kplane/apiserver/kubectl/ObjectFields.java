package io.kplane.apiserver.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kplane.api.util.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Null-safe reads from an object's JSON tree. The printers work on the stored JSON rather than the
 * typed records so that any object the store holds prints, whatever fields it carries.
 */
final class ObjectFields {
    private ObjectFields() {}

    /** The node at a dotted path ({@code status.startTime}), or a missing node. */
    static JsonNode at(JsonNode obj, String dottedPath) {
        JsonNode n = obj == null ? MissingNode.getInstance() : obj;
        for (String part : dottedPath.split("\\.")) {
            n = n.path(part);
        }
        return n;
    }

    static String text(JsonNode obj, String dottedPath) {
        JsonNode n = at(obj, dottedPath);
        return n.isValueNode() ? n.asText() : "";
    }

    static String textOr(JsonNode obj, String dottedPath, String fallback) {
        String t = text(obj, dottedPath);
        return t.isEmpty() ? fallback : t;
    }

    static long number(JsonNode obj, String dottedPath) {
        return at(obj, dottedPath).asLong(0);
    }

    /** An RFC 3339 time at {@code dottedPath}, or null when absent or unreadable. */
    static Instant time(JsonNode obj, String dottedPath) {
        return Timestamps.parseOrNull(text(obj, dottedPath));
    }

    static List<JsonNode> list(JsonNode obj, String dottedPath) {
        JsonNode n = at(obj, dottedPath);
        List<JsonNode> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(out::add);
        }
        return out;
    }

    /** True when {@code conditions} has an entry of {@code type} with status True. */
    static boolean hasTrueCondition(JsonNode obj, String conditionsPath, String type) {
        for (JsonNode c : list(obj, conditionsPath)) {
            if (type.equals(c.path("type").asText())
                    && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    /** Names and images of containers joined by commas, like kubectl's {@code layoutContainerCells}. */
    static String[] containerCells(JsonNode containers) {
        List<String> names = new ArrayList<>();
        List<String> images = new ArrayList<>();
        if (containers != null && containers.isArray()) {
            for (JsonNode c : containers) {
                names.add(c.path("name").asText());
                images.add(c.path("image").asText());
            }
        }
        return new String[] {String.join(",", names), String.join(",", images)};
    }

    /**
     * A label selector in the form {@code metav1.FormatLabelSelector} prints: requirements sorted by key,
     * {@code k=v}, {@code k in (a,b)}, {@code k notin (a)}, {@code k}, {@code !k}; {@code <none>} when empty.
     */
    static String formatSelector(JsonNode selector) {
        if (selector == null || !selector.isObject()) {
            return "<none>";
        }
        TreeMap<String, List<String>> byKey = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> labels =
                selector.path("matchLabels").fields();
        while (labels.hasNext()) {
            Map.Entry<String, JsonNode> e = labels.next();
            byKey.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                    .add(e.getKey() + "=" + e.getValue().asText());
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            String key = expr.path("key").asText();
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            values.sort(String::compareTo);
            String rendered =
                    switch (expr.path("operator").asText()) {
                        case "In" -> key + " in (" + String.join(",", values) + ")";
                        case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                        case "Exists" -> key;
                        case "DoesNotExist" -> "!" + key;
                        default -> key + " " + expr.path("operator").asText();
                    };
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(rendered);
        }
        List<String> parts = new ArrayList<>();
        byKey.values().forEach(parts::addAll);
        return parts.isEmpty() ? "<none>" : String.join(",", parts);
    }
}
