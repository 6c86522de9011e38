package io.kplane.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields each resource can be selected by, with how Kubernetes derives each value: absent
 * strings are {@code ""}, absent booleans {@code false}, absent counters {@code 0}.
 */
public final class SelectableFields {
    private static final Set<String> COMMON = Set.of("metadata.name", "metadata.namespace");

    private static final Map<String, Set<String>> EXTRA = Map.of(
            ResourceTypes.PODS.storageName(),
                    Set.of(
                            "spec.nodeName",
                            "spec.restartPolicy",
                            "spec.schedulerName",
                            "spec.serviceAccountName",
                            "spec.hostNetwork",
                            "status.phase",
                            "status.podIP",
                            "status.nominatedNodeName"),
            ResourceTypes.EVENTS.storageName(),
                    Set.of(
                            "involvedObject.kind",
                            "involvedObject.namespace",
                            "involvedObject.name",
                            "involvedObject.uid",
                            "involvedObject.apiVersion",
                            "involvedObject.resourceVersion",
                            "involvedObject.fieldPath",
                            "reason",
                            "reportingComponent",
                            "source",
                            "type"),
            ResourceTypes.JOBS.storageName(), Set.of("status.successful"),
            ResourceTypes.NODES.storageName(), Set.of("spec.unschedulable"),
            ResourceTypes.NAMESPACES.storageName(), Set.of("status.phase"));

    private SelectableFields() {}

    public static boolean supports(ResourceType type, String field) {
        return COMMON.contains(field)
                || EXTRA.getOrDefault(type.storageName(), Set.of()).contains(field);
    }

    /** The fields {@code type} supports, for documentation and error hints. */
    public static Set<String> fields(ResourceType type) {
        java.util.TreeSet<String> all = new java.util.TreeSet<>(COMMON);
        all.addAll(EXTRA.getOrDefault(type.storageName(), Set.of()));
        return all;
    }

    /** The field's value in {@code object}, as Kubernetes' field set would hold it. */
    public static String value(ResourceType type, String field, JsonNode object) {
        return switch (field) {
            case "spec.hostNetwork", "spec.unschedulable" -> String.valueOf(
                    at(object, field).asBoolean(false));
            case "status.successful" -> String.valueOf(
                    at(object, "status.succeeded").asInt(0));
            case "source" -> at(object, "source.component").asText("");
            default -> {
                JsonNode n = at(object, field);
                yield n.isMissingNode() || n.isNull() ? "" : n.asText();
            }
        };
    }

    private static JsonNode at(JsonNode object, String dotted) {
        JsonNode n = object;
        for (String part : List.of(dotted.split("\\."))) {
            n = n.path(part);
        }
        return n;
    }
}
