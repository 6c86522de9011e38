package io.kplane.apiserver.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.json.Json;
import io.kplane.apiserver.errors.ApiError;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes an object into its typed model the way Kubernetes' decoder does: a value of the wrong
 * type is a 400 BadRequest, and fields the model does not know are collected (for
 * {@code fieldValidation}) and can be pruned (Kubernetes drops unknown fields of built-in types).
 */
public final class UnknownFields {
    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private UnknownFields() {
    }

    /**
     * Paths of unknown fields in Kubernetes' notation ({@code spec.template.spec.containers[0].foo}),
     * in document order.
     *
     * @throws ApiError 400 when a known field has a value of the wrong type
     */
    public static List<String> find(ResourceType type, ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        for (JsonPointer p : pointers(type, object)) {
            unknown.add(toFieldPath(p));
        }
        return unknown;
    }

    /** Removes the unknown fields. */
    public static void prune(ObjectNode object, ResourceType type) {
        for (JsonPointer pointer : pointers(type, object)) {
            var parent = object.at(pointer.head());
            if (parent instanceof ObjectNode on) {
                on.remove(pointer.last().getMatchingProperty());
            }
        }
    }

    private static List<JsonPointer> pointers(ResourceType type, ObjectNode object) {
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
        } catch (JsonMappingException e) {
            throw ApiError.badRequest("error decoding " + type.kind() + ": " + describe(e));
        } catch (IOException | RuntimeException e) {
            throw ApiError.badRequest("error decoding " + type.kind() + ": " + e.getMessage());
        }
        return pointers;
    }

    private static String describe(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            }
        }
        String msg = e.getOriginalMessage();
        int nl = msg == null ? -1 : msg.indexOf('\n');
        if (nl > 0) {
            msg = msg.substring(0, nl);
        }
        return path.length() == 0 ? msg : "field " + path + ": " + msg;
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
