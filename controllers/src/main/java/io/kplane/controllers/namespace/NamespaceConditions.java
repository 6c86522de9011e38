package io.kplane.controllers.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.json.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The namespace's deletion conditions with upstream's types, reasons and messages
 * (pkg/controller/namespace/deletion/status_condition_utils.go): each is True with the problem, or
 * False with its "ok" reason; lastTransitionTime changes only when the status does.
 */
final class NamespaceConditions {
    static final String DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";
    static final String GV_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";
    static final String CONTENT_FAILURE = "NamespaceDeletionContentFailure";
    static final String CONTENT_REMAINING = "NamespaceContentRemaining";
    static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";

    private record Condition(String status, String reason, String message) {}

    private final Map<String, Condition> conditions = new LinkedHashMap<>();

    NamespaceConditions() {
        ok(DISCOVERY_FAILURE, "ResourcesDiscovered", "All resources successfully discovered");
        ok(GV_PARSING_FAILURE, "ParsedGroupVersions", "All legacy kube types successfully parsed");
        ok(CONTENT_FAILURE, "ContentDeleted", "All content successfully deleted, may be waiting on finalization");
        ok(CONTENT_REMAINING, "ContentRemoved", "All content successfully removed");
        ok(FINALIZERS_REMAINING, "ContentRemoved", "All content successfully removed");
    }

    private void ok(String type, String reason, String message) {
        conditions.put(type, new Condition("False", reason, message));
    }

    void discoveryFailed(List<String> failures) {
        conditions.put(
                DISCOVERY_FAILURE,
                new Condition(
                        "True",
                        "DiscoveryFailed",
                        "Discovery failed for some groups, " + failures.size() + " failing: "
                                + String.join(", ", failures)));
    }

    void contents(NamespaceContentDeleter.Totals totals) {
        if (!totals.deleteErrors().isEmpty()) {
            List<String> sorted = totals.deleteErrors().stream().sorted().toList();
            conditions.put(
                    CONTENT_FAILURE,
                    new Condition(
                            "True",
                            "ContentDeletionFailed",
                            "Failed to delete all resource types, " + sorted.size() + " remaining: "
                                    + String.join(", ", sorted)));
        }
        if (!totals.remainingByResource().isEmpty()) {
            conditions.put(
                    CONTENT_REMAINING,
                    new Condition(
                            "True",
                            "SomeResourcesRemain",
                            "Some resources are remaining: "
                                    + totals.remainingByResource().entrySet().stream()
                                            .map(e -> e.getKey() + " has " + e.getValue() + " resource instances")
                                            .sorted()
                                            .collect(Collectors.joining(", "))));
        }
        if (!totals.remainingByFinalizer().isEmpty()) {
            conditions.put(
                    FINALIZERS_REMAINING,
                    new Condition(
                            "True",
                            "SomeFinalizerRemain",
                            "Some finalizers are remaining: "
                                    + totals.remainingByFinalizer().entrySet().stream()
                                            .map(e -> e.getKey() + " in " + e.getValue() + " resource instances")
                                            .sorted()
                                            .collect(Collectors.joining(", "))));
        }
    }

    /** Writes the conditions into {@code namespace.status.conditions}; true if anything changed. */
    boolean applyTo(ObjectNode namespace, Instant now) {
        ObjectNode status = namespace.get("status") instanceof ObjectNode s ? s : namespace.putObject("status");
        ArrayNode list = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        boolean changed = false;
        for (Map.Entry<String, Condition> e : conditions.entrySet()) {
            Condition c = e.getValue();
            ObjectNode old = find(list, e.getKey());
            if (old == null) {
                ObjectNode added = list.addObject();
                added.put("type", e.getKey())
                        .put("status", c.status())
                        .put("lastTransitionTime", Json.formatTime(now))
                        .put("reason", c.reason())
                        .put("message", c.message());
                changed = true;
            } else if (!c.status().equals(old.path("status").asText())
                    || !c.reason().equals(old.path("reason").asText())
                    || !c.message().equals(old.path("message").asText())) {
                if (!c.status().equals(old.path("status").asText())) {
                    old.put("lastTransitionTime", Json.formatTime(now));
                }
                old.put("status", c.status()).put("reason", c.reason()).put("message", c.message());
                changed = true;
            }
        }
        return changed;
    }

    private static ObjectNode find(ArrayNode list, String type) {
        for (JsonNode c : list) {
            if (type.equals(c.path("type").asText()) && c instanceof ObjectNode o) {
                return o;
            }
        }
        return null;
    }
}
