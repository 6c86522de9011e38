package io.kplane.apiserver.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
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
 * The previous {@link UnknownFields}, kept as the reference: a full typed decode that collects unknown
 * fields through Jackson's problem handler. One fix: the old code took the path from
 * {@code p.getParsingContext().pathAsPointer()}, which is wrong when the unknown field's value is an
 * object or array (the context is already the value's own), e.g. {@code status.active[0].[1]} for
 * {@code zz: [1]}; here the path is the containing object's context plus the property name.
 */
final class DecodeOracle {
    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private DecodeOracle() {
    }

    static List<String> find(ResourceType type, ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        for (JsonPointer p : pointers(type, object)) {
            unknown.add(toFieldPath(p));
        }
        return unknown;
    }

    static void prune(ObjectNode object, ResourceType type) {
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
                    JsonStreamContext context = p.getParsingContext();
                    if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
                        context = context.getParent();
                    }
                    JsonPointer parent = context.getParent() == null ? JsonPointer.empty()
                            : context.getParent().pathAsPointer();
                    pointers.add(parent.appendProperty(propertyName));
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
