package io.kplane.controllers.nodelifecycle;

import io.kplane.api.core.Node;
import io.kplane.api.core.NodeCondition;
import io.kplane.client.lens.SyncScope;
import java.time.Duration;
import java.time.Instant;

/**
 * The node lifecycle monitor's words in its lens sync records (docs/lens.md). Upstream's
 * monitorNodeHealth runs on a timer (every node-monitor-period), not from a workqueue, and so does
 * kplane's: a pass opens one record per node it acts on (or is waiting on) — a healthy node is not news.
 */
final class NodeLifecycleDecision {
    /** Ready (and every other condition) → Unknown, reason NodeStatusUnknown. */
    static final String MARK_UNKNOWN = "mark-unknown";
    /** The node.kubernetes.io/unreachable NoSchedule + NoExecute taints were added. */
    static final String TAINT = "taint";
    /** Tainted; the pods are marked Failed once the eviction delay has passed too. */
    static final String WAIT_EVICTION = "wait-eviction";
    /** The node's non-terminal pods were marked Failed (NodeLost, DisruptionTarget). */
    static final String EVICT_PODS = "evict-pods";
    /** The heartbeat came back: the unreachable taints were removed. */
    static final String UNTAINT = "untaint";

    private NodeLifecycleDecision() {}

    static void saw(
            SyncScope lens, Node node, Instant heartbeat, Duration silence, Duration grace, Duration evictionDelay) {
        NodeCondition ready = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        lens.resource("nodes")
                .object(node.uid(), node.metadata().resourceVersion())
                .saw("ready", ready == null ? "missing" : ready.status())
                .saw("lastHeartbeat", heartbeat == null ? "never" : heartbeat.toString())
                .saw("silenceSeconds", silence.toSeconds())
                .saw("gracePeriodSeconds", grace.toSeconds())
                .saw("podEvictionDelaySeconds", evictionDelay.toSeconds())
                .saw("unreachableTaint", NodeLifecycleController.hasUnreachableTaint(node));
    }
}
