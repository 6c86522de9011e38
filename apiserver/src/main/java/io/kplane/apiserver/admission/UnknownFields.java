package io.kplane.apiserver.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
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
 * Finds the fields of an object that its typed model does not know (for {@code fieldValidation}) and
 * prunes them (Kubernetes drops unknown fields of built-in types); a known field with a value of the
 * wrong type is a 400 BadRequest, as Kubernetes' decoder reports it.
 *
 * <p>This runs on every write, so it does not decode: {@link UnknownFieldWalk} walks the tree
 * against the model's {@link FieldShape} (Jackson's own view of the model, built once per type).
 * Only when the walk meets a value the decoder might coerce or reject, or a shape it does not model,
 * does the full typed decode run, to report exactly the decoder's error (or result).
 */
public final class UnknownFields {
    /*
     * The decoder's own mapper, read with unknown properties failing, not a copy() of it: a copy starts
     * with an empty deserializer cache, so each kind's deserializers were built twice, once here and
     * once for the typed decode (KubeAdmission) of the same request. Which properties are unknown is
     * decided when a value is read (the feature), not when its deserializer is built, so one cache
     * serves both. The Node's first create: ~40-50 ms of CPU on a fresh JVM (docs/performance.md).
     */
    private static final ObjectMapper MAPPER = Json.mapper();
    private static final DeserializationConfig CONFIG =
            MAPPER.getDeserializationConfig().with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final FieldShapes SHAPES = new FieldShapes(MAPPER, CONFIG);

    private UnknownFields() {}

    /**
     * Paths of unknown fields in Kubernetes' notation ({@code spec.template.spec.containers[0].foo}),
     * in document order.
     *
     * @throws ApiError 400 when a known field has a value of the wrong type
     */
    public static List<String> find(ResourceType type, ObjectNode object) {
        UnknownFieldWalk walk = walk(type, object);
        if (walk != null) {
            return walk.paths();
        }
        List<String> unknown = new ArrayList<>();
        for (JsonPointer p : pointers(type, object)) {
            unknown.add(toFieldPath(p, object));
        }
        return unknown;
    }

    /**
     * Removes the unknown fields.
     *
     * @throws ApiError 400 when a known field has a value of the wrong type
     */
    public static void prune(ObjectNode object, ResourceType type) {
        UnknownFieldWalk walk = walk(type, object);
        if (walk != null) {
            walk.prune();
            return;
        }
        for (JsonPointer pointer : pointers(type, object)) {
            var parent = object.at(pointer.head());
            if (parent instanceof ObjectNode on) {
                on.remove(pointer.last().getMatchingProperty());
            }
        }
    }

    /**
     * The walk's findings, after the decoder has vouched for any value the walk was unsure of;
     * {@code null} when only the decoder can tell which fields are unknown.
     */
    private static UnknownFieldWalk walk(ResourceType type, ObjectNode object) {
        UnknownFieldWalk walk = UnknownFieldWalk.of(SHAPES.of(type.javaType()), object);
        if (walk.shapeInDoubt()) {
            return null;
        }
        if (walk.typeError() != null) {
            throw ApiError.badRequest("error decoding " + type.kind() + ": " + walk.typeError());
        }
        if (walk.valueInDoubt()) {
            pointers(type, object); // throws the decoder's 400 if the value is wrong, not just coercible
        }
        return walk;
    }

    /**
     * The unknown fields as the typed decoder sees them: the slow path, and the reference the walk is
     * tested against ({@code DecodeOracle}).
     */
    static List<JsonPointer> pointers(ResourceType type, ObjectNode object) {
        List<JsonPointer> pointers = new ArrayList<>();
        try {
            MAPPER.reader(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .forType(type.javaType())
                    .withHandler(new DeserializationProblemHandler() {
                        @Override
                        public boolean handleUnknownProperty(
                                DeserializationContext ctxt,
                                JsonParser p,
                                JsonDeserializer<?> deserializer,
                                Object beanOrClass,
                                String propertyName)
                                throws IOException {
                            // at an object or array value the context is already the value's own
                            JsonStreamContext context = p.getParsingContext();
                            if (p.currentToken() == JsonToken.START_OBJECT
                                    || p.currentToken() == JsonToken.START_ARRAY) {
                                context = context.getParent();
                            }
                            JsonPointer parent = context.getParent() == null
                                    ? JsonPointer.empty()
                                    : context.getParent().pathAsPointer();
                            pointers.add(parent.appendProperty(propertyName));
                            p.skipChildren();
                            return true;
                        }
                    })
                    .readValue(MAPPER.treeAsTokens(object));
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

    /** Kubernetes' notation for a pointer into {@code root}: an index only where the node is an array. */
    static String toFieldPath(JsonPointer pointer, JsonNode root) {
        StringBuilder sb = new StringBuilder();
        JsonNode node = root;
        for (JsonPointer p = pointer; p != null && !p.matches(); p = p.tail()) {
            String segment = p.getMatchingProperty();
            if (node != null && node.isArray() && p.getMatchingIndex() >= 0) {
                UnknownFieldWalk.appendSegment(sb, p.getMatchingIndex());
                node = node.get(p.getMatchingIndex());
            } else {
                UnknownFieldWalk.appendSegment(sb, segment);
                node = node == null ? null : node.get(segment);
            }
        }
        return sb.toString();
    }
}
