package io.kplane.apiserver.admission;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import java.util.ArrayList;
import java.util.List;

/**
 * The previous {@link UnknownFields}, kept as the reference: a full typed decode that collects unknown
 * fields through Jackson's problem handler ({@link UnknownFields#pointers}, which the walk falls back
 * to), with the previous notation for paths. One fix over the old code, made in that shared method:
 * the path of an unknown field whose value is an object or array is the containing object's plus
 * the property name (it was {@code status.active[0].[1]} for {@code zz: [1]}).
 */
final class DecodeOracle {
    private DecodeOracle() {}

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

    /** The typed decoder's findings (what UnknownFields falls back to); 400 on a wrongly typed value. */
    private static List<JsonPointer> pointers(ResourceType type, ObjectNode object) {
        return UnknownFields.pointers(type, object);
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
