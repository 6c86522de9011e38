package io.kplane.store.pg;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import io.kplane.store.EncodedObject;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Objects are stored as JSON text (key order preserved) without {@code metadata.resourceVersion}:
 * the revision column is the truth, and it is stamped into the object whenever one is read.
 */
final class ObjectCodec {
    private static final ObjectMapper MAPPER = Json.mapper();

    private ObjectCodec() {}

    /**
     * The stored form of an object the caller owns: {@code metadata.resourceVersion} is removed from
     * it in place (the write stamps the new revision into it afterwards), saving a copy per write.
     * Also notes where {@code metadata} ends, so responses and watch events can reuse the text
     * ({@link EncodedObject#json}); objects without a metadata object get no such offset.
     */
    static Encoded encodeOwned(ObjectNode object) {
        JsonNode metadata = object.get("metadata");
        if (metadata instanceof ObjectNode meta) {
            meta.remove("resourceVersion");
        }
        StringWriter out = new StringWriter(1024);
        int metadataEnd = -1;
        try (JsonGenerator g = MAPPER.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                g.writeFieldName(field.getKey());
                MAPPER.writeTree(g, field.getValue());
                if (metadataEnd < 0 && "metadata".equals(field.getKey()) && metadata instanceof ObjectNode) {
                    g.flush();
                    metadataEnd = out.getBuffer().length() - 1;
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String text = out.toString();
        return new Encoded(text, metadataEnd < 0 ? null : new EncodedObject(text, metadataEnd));
    }

    /** The stored text, and the same as an {@link EncodedObject} when it has a metadata object. */
    record Encoded(String text, EncodedObject reusable) {}

    static ObjectNode decode(String json, long revision) {
        try {
            return stamp((ObjectNode) MAPPER.readTree(json), revision);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A deep copy with the node types a parse of its JSON would give (an integral number that fits
     * an int becomes an IntNode, as the parser makes it), so a tree kept from a write behaves exactly
     * like one read back from the database, down to {@code JsonNode.equals}. Value nodes other than
     * numbers are immutable and shared.
     */
    static ObjectNode parsedFormCopy(ObjectNode object) {
        return (ObjectNode) parsedFormCopy((JsonNode) object);
    }

    private static JsonNode parsedFormCopy(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode copy = object.objectNode();
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                copy.set(field.getKey(), parsedFormCopy(field.getValue()));
            }
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode(array.size());
            for (JsonNode element : array) {
                copy.add(parsedFormCopy(element));
            }
            return copy;
        }
        if (node.isIntegralNumber() && !node.isBigInteger()) {
            long value = node.longValue();
            return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
        }
        if (node.isFloat()) {
            return DoubleNode.valueOf(node.doubleValue());
        }
        return node;
    }

    /** Sets {@code metadata.resourceVersion} to the revision (in place) and returns the object. */
    static ObjectNode stamp(ObjectNode object, long revision) {
        JsonNode metadata = object.get("metadata");
        ObjectNode meta = metadata instanceof ObjectNode m ? m : object.putObject("metadata");
        meta.put("resourceVersion", Long.toString(revision));
        return object;
    }
}
