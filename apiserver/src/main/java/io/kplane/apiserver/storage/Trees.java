package io.kplane.apiserver.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Small helpers for reading and editing object JSON trees ({@code metadata.*}, {@code spec.*}). */
public final class Trees {
    private Trees() {}

    /** {@code metadata}, created empty if absent or not an object. */
    public static ObjectNode meta(ObjectNode object) {
        JsonNode m = object.get("metadata");
        if (m instanceof ObjectNode on) {
            return on;
        }
        return object.putObject("metadata");
    }

    public static String text(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n != null && n.isTextual() ? n.asText() : null;
    }

    public static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            if (n == null || !n.isObject()) {
                return null;
            }
            n = n.get(p);
        }
        return n == null || n.isNull() || n.isMissingNode() ? null : n;
    }

    public static String name(ObjectNode object) {
        return text(object, "metadata", "name");
    }

    public static String resourceVersion(ObjectNode object) {
        return text(object, "metadata", "resourceVersion");
    }

    public static List<String> finalizers(ObjectNode object) {
        List<String> out = new ArrayList<>();
        JsonNode f = at(object, "metadata", "finalizers");
        if (f != null && f.isArray()) {
            f.forEach(e -> out.add(e.asText()));
        }
        return out;
    }

    public static void setFinalizers(ObjectNode object, List<String> finalizers) {
        ObjectNode meta = meta(object);
        if (finalizers.isEmpty()) {
            meta.remove("finalizers");
        } else {
            ArrayNode arr = meta.putArray("finalizers");
            finalizers.forEach(arr::add);
        }
    }

    public static boolean isBeingDeleted(ObjectNode object) {
        return at(object, "metadata", "deletionTimestamp") != null;
    }

    /** JSON equality where numbers compare by value (1 as int equals 1 as long), as after a round trip. */
    public static boolean sameContent(JsonNode a, JsonNode b) {
        return a.equals(NUMERIC_BY_VALUE, b);
    }

    private static final java.util.Comparator<JsonNode> NUMERIC_BY_VALUE = (x, y) -> {
        if (x.equals(y)) {
            return 0;
        }
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return 1;
    };

    /** Parses a resourceVersion string; a malformed one is a client mistake (400). */
    public static long parseResourceVersion(String rv) {
        try {
            long v = Long.parseLong(rv);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw io.kplane.apiserver.errors.ApiError.badRequest("invalid resource version: \"" + rv + "\"");
        }
    }
}
