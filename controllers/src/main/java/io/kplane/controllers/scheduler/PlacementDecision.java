package io.kplane.controllers.scheduler;

import java.util.Map;

/**
 * Where a pod goes: a node, or why it fits nowhere (the scheduler's FitError message); and, for the
 * lens, the verdict on every node considered (node → why it was not chosen, or why it was).
 */
public record PlacementDecision(String node, String unschedulableMessage, Map<String, String> verdicts) {

    public PlacementDecision {
        verdicts = verdicts == null ? Map.of() : verdicts;
    }

    public static PlacementDecision to(String node) {
        return new PlacementDecision(node, null, Map.of());
    }

    public static PlacementDecision to(String node, Map<String, String> verdicts) {
        return new PlacementDecision(node, null, verdicts);
    }

    public static PlacementDecision nowhere(String message) {
        return new PlacementDecision(null, message, Map.of());
    }

    public static PlacementDecision nowhere(String message, Map<String, String> verdicts) {
        return new PlacementDecision(null, message, verdicts);
    }

    public boolean isScheduled() {
        return node != null;
    }
}
