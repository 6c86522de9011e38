package io.kplane.store.pg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;

import java.io.UncheckedIOException;

/**
 * Objects are stored as JSON text (key order preserved) without {@code metadata.resourceVersion}:
 * the revision column is the truth, and it is stamped into the object whenever one is read.
 */
final class ObjectCodec {
    private static final ObjectMapper MAPPER = Json.mapper();

    private ObjectCodec() {
    }

    /**
     * The stored form of an object the caller owns: {@code metadata.resourceVersion} is removed from
     * it in place (the write stamps the new revision into it afterwards), saving a copy per write.
     */
    static String encodeOwned(ObjectNode object) {
        JsonNode metadata = object.get("metadata");
        if (metadata instanceof ObjectNode meta) {
            meta.remove("resourceVersion");
        }
        try {
            return MAPPER.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode decode(String json, long revision) {
        try {
            return stamp((ObjectNode) MAPPER.readTree(json), revision);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets {@code metadata.resourceVersion} to the revision (in place) and returns the object. */
    static ObjectNode stamp(ObjectNode object, long revision) {
        JsonNode metadata = object.get("metadata");
        ObjectNode meta = metadata instanceof ObjectNode m ? m : object.putObject("metadata");
        meta.put("resourceVersion", Long.toString(revision));
        return object;
    }
}
