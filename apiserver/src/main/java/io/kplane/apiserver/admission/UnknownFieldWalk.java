package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.PlainUtcTime;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One pass over an object tree against its {@link FieldShape}: collects the fields the model does not
 * know, in document order, without decoding anything. Values the decoder might coerce or reject are
 * not judged here; the walk flags them so the caller lets the decoder have the last word.
 */
final class UnknownFieldWalk {
    /** Unknown fields: their paths in Kubernetes notation and where they sit, for pruning. */
    private List<String> paths = List.of();

    private List<ObjectNode> parents = List.of();
    private List<String> names = List.of();

    /** A scalar the decoder may coerce or reject ({@code "3"} for an int, an unparsable time). */
    private boolean valueInDoubt;
    /** A value whose shape the walk does not follow (object for a list, opaque type): the decoder decides. */
    private boolean shapeInDoubt;

    /**
     * A wrong type the walk can tell for sure (an object or array given as a time), reported without
     * running the decoder, with the decoder's own message.
     */
    private String typeError;

    /** The current path: a String (field) or Integer (list index) per level. */
    private Object[] path = new Object[16];

    private int depth;

    static UnknownFieldWalk of(FieldShape shape, ObjectNode object) {
        UnknownFieldWalk walk = new UnknownFieldWalk();
        walk.value(shape, object);
        return walk;
    }

    List<String> paths() {
        return paths;
    }

    boolean valueInDoubt() {
        return valueInDoubt;
    }

    /** {@code field <path>: <message>} for a value of the wrong type, or null. */
    String typeError() {
        return typeError;
    }

    boolean shapeInDoubt() {
        return shapeInDoubt;
    }

    /** Removes the unknown fields found. */
    void prune() {
        for (int i = 0; i < parents.size(); i++) {
            parents.get(i).remove(names.get(i));
        }
    }

    private void value(FieldShape shape, JsonNode node) {
        if (shapeInDoubt) {
            return;
        }
        if (node.isNull()) {
            if (shape.nullChecked || shape.kind == FieldShape.Kind.OPAQUE) {
                valueInDoubt = true;
                shapeInDoubt |= shape.kind == FieldShape.Kind.OPAQUE;
            }
            return;
        }
        switch (shape.kind) {
            case ANY -> {}
            case STRING -> valueInDoubt |= !node.isTextual();
            case INT -> valueInDoubt |= !(node.isInt() || node.isShort());
            case LONG -> valueInDoubt |= !(node.isInt() || node.isLong() || node.isShort());
            case DOUBLE -> valueInDoubt |=
                    !(node.isDouble() || node.isInt() || node.isLong() || node.isShort() || node.isFloat());
            case BOOLEAN -> valueInDoubt |= !node.isBoolean();
            case INSTANT -> {
                if (node.isContainerNode()) {
                    wrongType("java.time.Instant", node);
                } else {
                    valueInDoubt |= !(node.isTextual() && isTime(node.textValue()));
                }
            }
            case SCALAR -> valueInDoubt = true;
            case OPAQUE -> shapeInDoubt = true;
            case LIST -> {
                if (node instanceof ArrayNode array) {
                    list(shape.element, array);
                } else {
                    shapeInDoubt = true;
                }
            }
            case MAP -> {
                if (node instanceof ObjectNode object) {
                    map(shape.element, object);
                } else {
                    shapeInDoubt = true;
                }
            }
            case BEAN -> {
                if (node instanceof ObjectNode object) {
                    bean(shape, object);
                } else {
                    shapeInDoubt = true;
                }
            }
        }
    }

    private void list(FieldShape element, ArrayNode array) {
        if (element.kind == FieldShape.Kind.ANY) {
            return;
        }
        for (int i = 0, n = array.size(); i < n; i++) {
            push(i);
            value(element, array.get(i));
            depth--;
        }
    }

    private void map(FieldShape element, ObjectNode object) {
        if (element.kind == FieldShape.Kind.ANY) {
            return;
        }
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            push(field.getKey());
            value(element, field.getValue());
            depth--;
        }
    }

    private void bean(FieldShape shape, ObjectNode object) {
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            String name = field.getKey();
            FieldShape child = shape.properties.get(name);
            if (child == null) {
                // not a primary name: the decoder may still know it (alias, case-insensitive match)
                SettableBeanProperty property = shape.deserializer.findProperty(name);
                if (property == null) {
                    if (!shape.anyName && !shape.ignored.contains(name)) {
                        unknown(object, name);
                    }
                    continue;
                }
                child = shape.properties.getOrDefault(property.getName(), FieldShape.OPAQUE);
            }
            push(name);
            value(child, field.getValue());
            depth--;
        }
    }

    private void push(Object segment) {
        if (depth == path.length) {
            path = java.util.Arrays.copyOf(path, depth * 2);
        }
        path[depth++] = segment;
    }

    private void wrongType(String javaType, JsonNode node) {
        if (typeError == null) {
            typeError = "field " + currentPath() + ": Cannot deserialize value of type `" + javaType + "` from "
                    + (node.isArray()
                            ? "Array value (token `JsonToken.START_ARRAY`)"
                            : "Object value (token `JsonToken.START_OBJECT`)");
        }
    }

    private String currentPath() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            appendSegment(sb, path[i]);
        }
        return sb.toString();
    }

    private void unknown(ObjectNode parent, String name) {
        if (parents.isEmpty()) {
            paths = new ArrayList<>(4);
            parents = new ArrayList<>(4);
            names = new ArrayList<>(4);
        }
        StringBuilder sb = new StringBuilder(currentPath());
        appendSegment(sb, name);
        paths.add(sb.toString());
        parents.add(parent);
        names.add(name);
    }

    /** Kubernetes' field path notation: {@code spec.containers[0].name}. */
    static void appendSegment(StringBuilder sb, Object segment) {
        if (segment instanceof Integer index) {
            sb.append('[').append(index.intValue()).append(']');
        } else {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append((String) segment);
        }
    }

    /**
     * Whether {@code Json}'s Instant deserializer accepts the text. The common
     * {@code 2006-01-02T15:04:05Z} form (optionally with a fraction) is checked by hand, since it is on
     * every object; anything else goes through the same parsers the deserializer uses.
     */
    static boolean isTime(String text) {
        if (text.isEmpty() || isPlainUtcTime(text)) {
            return true;
        }
        try {
            Instant.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            try {
                OffsetDateTime.parse(text);
                return true;
            } catch (DateTimeParseException e2) {
                return false;
            }
        }
    }

    /**
     * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with a valid date and a time without leap second: a
     * subset of what {@link Instant#parse} accepts; the same hand-written reader {@code Json} decodes
     * times with.
     */
    static boolean isPlainUtcTime(String s) {
        return PlainUtcTime.parse(s) != null;
    }
}
