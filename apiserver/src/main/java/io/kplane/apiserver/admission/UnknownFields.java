package io.kplane.apiserver.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the fields of an object its typed model does not know, as Kubernetes' strict decoding does,
 * and prunes them (Kubernetes drops unknown fields of built-in types).
 */
public final class UnknownFields {
    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private UnknownFields() {
    }

    /** Paths in Kubernetes' notation ({@code spec.template.spec.containers[0].foo}), in document order. */
    public static List<String> find(ResourceType type, ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        List<JsonPointer> pointers = new ArrayList<>();
        try {
            MAPPER.reader().forType(type.javaType()).withHandler(new DeserializationProblemHandler() {
                @Override
                public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p,
                                                     JsonDeserializer<?> deserializer, Object beanOrClass,
                                                     String propertyName) throws IOException {
                    JsonPointer pointer = p.getParsingContext().pathAsPointer();
                    pointers.add(pointer);
                    unknown.add(toFieldPath(pointer));
                    p.skipChildren();
                    return true;
                }
            }).readValue(MAPPER.treeAsTokens(object));
        } catch (IOException | RuntimeException e) {
            // Type mismatches are reported by validation, not here.
        }
        return unknown;
    }

    /** Removes the fields at the given Kubernetes paths (as returned by {@link #find}). */
    public static void prune(ObjectNode object, ResourceType type) {
        List<JsonPointer> pointers = new ArrayList<>();
        try {
            MAPPER.reader().forType(type.javaType()).withHandler(new DeserializationProblemHandler() {
                @Override
                public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p,
                                                     JsonDeserializer<?> deserializer, Object beanOrClass,
                                                     String propertyName) throws IOException {
                    pointers.add(p.getParsingContext().pathAsPointer());
                    p.skipChildren();
                    return true;
                }
            }).readValue(MAPPER.treeAsTokens(object));
        } catch (IOException | RuntimeException e) {
            return;
        }
        for (JsonPointer pointer : pointers) {
            var parent = object.at(pointer.head());
            if (parent instanceof ObjectNode on) {
                on.remove(pointer.last().getMatchingProperty());
            }
        }
    }

    static String toFieldPath(JsonPointer pointer) {
        StringBuilder sb = new StringBuilder();
        JsonPointer p = pointer;
        while (p != null && !p.matches()) {
            String segment = p.getMatchingProperty();
            if (p.getMatchingIndex() >= 0 && segment.chars().allMatch(Character::isDigit)) {
                sb.append('[').append(segment).append(']');
            } else {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(segment);
            }
            p = p.tail();
        }
        return sb.toString();
    }
}
