package io.kplane.controllers.scheduler;

/** Where a pod goes: a node, or why it fits nowhere (the scheduler's FitError message). */
public record PlacementDecision(String node, String unschedulableMessage) {

    public static PlacementDecision to(String node) {
        return new PlacementDecision(node, null);
    }

    public static PlacementDecision nowhere(String message) {
        return new PlacementDecision(null, message);
    }

    public boolean isScheduled() {
        return node != null;
    }
}
