package io.kplane.apiserver.selector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.selector.FieldQuery;
import io.kplane.api.selector.LabelQuery;
import io.kplane.api.selector.SelectorException;
import io.kplane.apiserver.errors.ApiError;
import io.kplane.apiserver.storage.Trees;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The {@code labelSelector} and {@code fieldSelector} of list and watch requests (parsed by the api
 * module), compiled to one predicate on object JSON. A malformed selector is a 400 BadRequest.
 */
public final class Selectors {
    private Selectors() {}

    public static Predicate<ObjectNode> compile(ResourceType type, String labelSelector, String fieldSelector) {
        LabelQuery labels;
        FieldQuery fields;
        try {
            labels = LabelQuery.parse(labelSelector);
        } catch (SelectorException e) {
            throw ApiError.badRequest("unable to parse requirement: " + e.getMessage());
        } catch (RuntimeException e) {
            throw ApiError.badRequest("invalid label selector \"" + labelSelector + "\": " + e.getMessage());
        }
        try {
            fields = fieldSelector == null || fieldSelector.isBlank()
                    ? FieldQuery.everything(type)
                    : FieldQuery.parse(fieldSelector, type);
        } catch (SelectorException e) {
            throw ApiError.badRequest(e.getMessage());
        } catch (RuntimeException e) {
            throw ApiError.badRequest("invalid field selector \"" + fieldSelector + "\": " + e.getMessage());
        }
        if (labels.isEverything() && fields.isEverything()) {
            return o -> true;
        }
        return o -> labels.matches(labelsOf(o)) && fields.matches(o);
    }

    private static Map<String, String> labelsOf(ObjectNode o) {
        JsonNode labels = Trees.at(o, "metadata", "labels");
        if (labels == null || !labels.isObject()) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        labels.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
