package io.kplane.kubectl.print;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** {@code -o json} (4-space indent, like kubectl) and {@code -o yaml} (keys sorted, like kubectl). */
public final class Output {
    private Output() {}

    public static String json(JsonNode node) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("    ", "\n"))
                .withArrayIndenter(new DefaultIndenter("    ", "\n"));
        try {
            return Json.mapper().writer(printer).writeValueAsString(node).replace("\" : ", "\": ") + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String yaml(JsonNode node) {
        return Json.writeYaml(sorted(node));
    }

    /** A {@code List} wrapping several objects, as kubectl prints lists. */
    public static ObjectNode list(List<JsonNode> items) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("apiVersion", "v1");
        ArrayNode array = list.putArray("items");
        items.forEach(array::add);
        list.put("kind", "List");
        list.putObject("metadata").put("resourceVersion", "");
        return list;
    }

    static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (String n : names) {
                out.set(n, sorted(node.get(n)));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> out.add(sorted(e)));
            return out;
        }
        return node;
    }

    /** {@code k=v,k2=v2} of a labels map, or {@code <none>}. */
    public static String labels(JsonNode labels) {
        List<String> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = labels.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        parts.sort(String::compareTo);
        return parts.isEmpty() ? "<none>" : String.join(",", parts);
    }
}
