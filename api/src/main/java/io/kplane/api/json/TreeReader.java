package io.kplane.api.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;

/**
 * Reads a JSON or YAML document into a {@link JsonNode} tree straight from Jackson's streaming parser,
 * giving the same tree as {@code Json.mapper().readTree} (same node types for every number, last
 * duplicate key wins, trailing content ignored, an empty document is a missing node) without an
 * {@code ObjectMapper}. Why: a short-lived process that only reads trees (kubectl-lite reading its
 * kubeconfig and a Table) pays for {@code ObjectMapper}'s class initialisation otherwise, about a
 * quarter of a {@code kubectl-lite get pods} run: its {@code StdDateFormat} builds a
 * {@code SimpleDateFormat}, whose calendar makes the JDK's locale provider enumerate every available
 * locale (JFR, docs/performance.md "kubectl-lite"). {@code TreeReaderTest} compares both on many
 * documents.
 */
public final class TreeReader {
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Built on first use: most callers never read YAML. Through the builder, as {@code Json}'s YAML mapper:
     * {@code new YAMLFactory()} reads an empty document ({@code ---}) as null, the builder's as "".
     */
    private static final class Yaml {
        static final YAMLFactory FACTORY = YAMLFactory.builder().build();
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TreeReader() {}

    public static JsonNode json(byte[] content) throws IOException {
        try (JsonParser p = JSON.createParser(content)) {
            return read(p);
        }
    }

    public static JsonNode yaml(byte[] content) throws IOException {
        try (JsonParser p = Yaml.FACTORY.createParser(content)) {
            return read(p);
        }
    }

    public static JsonNode yaml(String content) throws IOException {
        try (JsonParser p = Yaml.FACTORY.createParser(content)) {
            return read(p);
        }
    }

    /** The first document of {@code p}; a missing node when there is none. */
    public static JsonNode read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken() == null ? p.nextToken() : p.currentToken();
        return t == null ? NODES.missingNode() : value(p, t);
    }

    /**
     * Whether {@code text} is at most nine decimal digits, optionally after a minus, with no leading zero: an
     * int in both JSON and YAML (YAML's other integer forms, such as {@code 0x1F}, {@code +5}, {@code 1_000}
     * or an octal {@code 010}, go through the parser's own number decoding).
     */
    private static boolean plainInt(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        int digits = text.length() - start;
        if (digits < 1 || digits > 9 || (text.charAt(start) == '0' && digits > 1)) {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT:
                ObjectNode object = NODES.objectNode();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    object.replace(name, value(p, p.nextToken()));
                }
                return object;
            case START_ARRAY:
                ArrayNode array = NODES.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    array.add(value(p, e));
                }
                return array;
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                String digits = p.getText();
                if (plainInt(digits)) {
                    // what Jackson's int parse gives, without it: its NumberInput's class initialiser compiles
                    // a regular expression, ~5% of a kubectl-lite get's main thread (docs/performance.md)
                    return NODES.numberNode(Integer.parseInt(digits));
                }
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                switch (p.getNumberTypeFP()) {
                    case BIG_DECIMAL:
                        return NODES.numberNode(p.getDecimalValue());
                    case FLOAT32:
                        return NODES.numberNode(p.getFloatValue());
                    default:
                        return NODES.numberNode(p.getDoubleValue());
                }
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            case VALUE_EMBEDDED_OBJECT:
                return embedded(p.getEmbeddedObject());
            default:
                throw new IOException("unexpected token " + t + " at " + p.currentLocation());
        }
    }

    private static JsonNode embedded(Object o) {
        if (o == null) {
            return NODES.nullNode();
        }
        if (o instanceof byte[] bytes) {
            return NODES.binaryNode(bytes);
        }
        if (o instanceof RawValue raw) {
            return NODES.rawValueNode(raw);
        }
        if (o instanceof JsonNode node) {
            return node;
        }
        return NODES.pojoNode(o);
    }
}
