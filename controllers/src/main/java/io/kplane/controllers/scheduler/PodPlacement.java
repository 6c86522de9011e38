package io.kplane.controllers.scheduler;

import io.kplane.api.core.Node;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduling algorithm, a pure function: filter the nodes a pod may run on (Ready, schedulable,
 * {@code nodeSelector} matches, pod capacity left), then spread load by choosing the node with the
 * fewest non-terminal pods (ties: name order). When nothing fits, the message counts the reasons per
 * node as kube-scheduler's FitError does, e.g.
 * {@code 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.}
 */
public final class PodPlacement {
    static final String NOT_READY = "node(s) had untolerated taint {node.kubernetes.io/not-ready: }";
    static final String UNREACHABLE = "node(s) had untolerated taint {node.kubernetes.io/unreachable: }";
    static final String UNSCHEDULABLE = "node(s) were unschedulable";
    static final String SELECTOR = "node(s) didn't match Pod's node affinity/selector";
    static final String TOO_MANY_PODS = "Too many pods";

    private PodPlacement() {}

    /** @param podsOnNode non-terminal pods bound (or being bound) to each node */
    public static PlacementDecision place(Pod pod, Collection<Node> nodes, Map<String, Integer> podsOnNode) {
        if (nodes.isEmpty()) {
            return PlacementDecision.nowhere("no nodes available to schedule pods");
        }
        Map<String, Integer> reasons = new TreeMap<>();
        Map<String, String> verdicts = new TreeMap<>();
        List<Node> feasible = new ArrayList<>();
        for (Node node : nodes) {
            String reason =
                    misfit(pod, node, podsOnNode.getOrDefault(node.metadata().name(), 0));
            if (reason == null) {
                feasible.add(node);
            } else {
                reasons.merge(reason, 1, Integer::sum);
                verdicts.put(node.metadata().name(), verdict(reason));
            }
        }
        if (feasible.isEmpty()) {
            List<String> parts = new ArrayList<>();
            reasons.forEach((reason, count) -> parts.add(count + " " + reason));
            parts.sort(Comparator.naturalOrder());
            return PlacementDecision.nowhere(
                    "0/" + nodes.size() + " nodes are available: " + String.join(", ", parts) + ".", verdicts);
        }
        Node best = feasible.stream()
                .min(Comparator.<Node>comparingInt(
                                n -> podsOnNode.getOrDefault(n.metadata().name(), 0))
                        .thenComparing(n -> n.metadata().name()))
                .orElseThrow();
        int bestLoad = podsOnNode.getOrDefault(best.metadata().name(), 0);
        for (Node node : feasible) {
            String name = node.metadata().name();
            int load = podsOnNode.getOrDefault(name, 0);
            verdicts.put(
                    name,
                    name.equals(best.metadata().name())
                            ? "chosen: fits, fewest pods (" + load + ")"
                            : "fits, not chosen: "
                                    + (load > bestLoad
                                            ? load + " pods, more than "
                                                    + best.metadata().name()
                                            : "same pods (" + load + "), "
                                                    + best.metadata().name() + " comes first by name"));
        }
        return PlacementDecision.to(best.metadata().name(), verdicts);
    }

    /** A node's filter failure as the lens shows it: the FitError reason without its "node(s)" count prefix. */
    static String verdict(String reason) {
        return switch (reason) {
            case NOT_READY -> "NotReady: untolerated taint node.kubernetes.io/not-ready";
            case UNREACHABLE -> "Unknown: untolerated taint node.kubernetes.io/unreachable";
            case UNSCHEDULABLE -> "unschedulable (spec.unschedulable, taint node.kubernetes.io/unschedulable)";
            case SELECTOR -> "didn't match Pod's node affinity/selector";
            case TOO_MANY_PODS -> "insufficient resources: Too many pods";
            default -> reason;
        };
    }

    /** Why {@code pod} cannot go to {@code node}, or null if it can. */
    static String misfit(Pod pod, Node node, int podsThere) {
        NodeCondition ready = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        if (ready == null || !"True".equals(ready.status())) {
            return ready != null && "Unknown".equals(ready.status()) ? UNREACHABLE : NOT_READY;
        }
        if (node.isUnschedulable()) {
            return UNSCHEDULABLE;
        }
        Map<String, String> selector = pod.spec().nodeSelector();
        if (selector != null) {
            Map<String, String> labels = node.metadata().labelsOrEmpty();
            for (var e : selector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return SELECTOR;
                }
            }
        }
        if (podsThere >= podCapacity(node)) {
            return TOO_MANY_PODS;
        }
        return null;
    }

    static int podCapacity(Node node) {
        Map<String, String> allocatable =
                node.status() == null ? null : node.status().allocatable();
        String pods = allocatable == null ? null : allocatable.get("pods");
        if (pods == null) {
            return 110;
        }
        try {
            return Integer.parseInt(pods.trim());
        } catch (NumberFormatException e) {
            return 110;
        }
    }
}
