package io.kplane.controllers.nodelifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.EventType;
import io.kplane.api.core.Node;
import io.kplane.api.core.NodeCondition;
import io.kplane.api.core.NodeSpec;
import io.kplane.api.core.NodeSpecBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import io.kplane.api.json.Json;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.KubeClientException;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.lens.ControllerLens;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches node heartbeats (the Lease {@code kube-node-lease/<node>}, else the Ready condition's
 * heartbeat). Like Kubernetes' node lifecycle controller it measures staleness on its own clock from
 * when it last <em>saw</em> the heartbeat change (so clock skew between machines does not matter, and a
 * restarted controller gives every node a full grace period).
 *
 * <p>A node not heard from for {@code gracePeriod} (40 s): its conditions become Unknown (reason
 * NodeStatusUnknown, "Kubelet stopped posting node status."), it gets the
 * {@code node.kubernetes.io/unreachable} NoSchedule and NoExecute taints, and after
 * {@code podEvictionDelay} its non-terminal pods are marked Failed with a {@code DisruptionTarget}
 * condition. Kubernetes' taint manager would delete them with reason DeletionByTaintManager; we keep
 * its condition wording (reason {@code DeletionByTaintManager}, message {@code Taint manager: deleting
 * due to NoExecute taint}) but fail the pods instead of deleting them, with status reason
 * {@code NodeLost} ("Node X which was running pod Y is unresponsive"), so Jobs replace them at once and
 * podFailurePolicy rules on DisruptionTarget apply. When the node's heartbeat resumes the taints are
 * removed; its kubelet reports it Ready again.
 */
public final class NodeLifecycleController {
    private static final Logger log = LoggerFactory.getLogger(NodeLifecycleController.class);
    public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
    static final String UNKNOWN_REASON = "NodeStatusUnknown";
    static final String UNKNOWN_MESSAGE = "Kubelet stopped posting node status.";
    static final String DISRUPTION_REASON = "DeletionByTaintManager";
    static final String DISRUPTION_MESSAGE = "Taint manager: deleting due to NoExecute taint";

    private final SharedInformer<Node> nodes;
    private final SharedInformer<Lease> leases;
    private final SharedInformer<Pod> pods;
    private final KubeClient client;
    private final EventRecorder events;
    private final Clock clock;
    private final Duration gracePeriod;
    private final Duration monitorPeriod;
    private final Duration podEvictionDelay;
    private final Map<String, Heartbeat> heartbeats = new ConcurrentHashMap<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(DaemonThreads.named("node-lifecycle"));
    private volatile boolean stopped;
    private volatile Clock.Timer timer;
    /** The lens's view of the monitor: no workqueue (a timer drives it), one sync record per node acted on. */
    private final ControllerLens lens;

    static final String LENS_NAME = "node-lifecycle";

    /**
     * The last heartbeat value seen for a node and when (on our clock) it was first seen;
     * {@code atLastJump} is the value when the cluster clock last jumped (see {@link #clockJumped}).
     */
    private record Heartbeat(Instant value, Instant observedAt, Instant atLastJump) {
        Heartbeat(Instant value, Instant observedAt) {
            this(value, observedAt, null);
        }
    }

    public NodeLifecycleController(
            SharedInformer<Node> nodes,
            SharedInformer<Lease> leases,
            SharedInformer<Pod> pods,
            KubeClient client,
            EventRecorder events,
            Clock clock,
            Duration gracePeriod,
            Duration monitorPeriod,
            Duration podEvictionDelay) {
        this.nodes = nodes;
        this.leases = leases;
        this.pods = pods;
        this.client = client;
        this.events = events;
        this.clock = clock;
        this.gracePeriod = gracePeriod;
        this.monitorPeriod = monitorPeriod;
        this.podEvictionDelay = podEvictionDelay;
        this.lens = nodes.lens().controller(LENS_NAME, null);
    }

    public void start() {
        if (clock instanceof io.kplane.client.time.ClusterClock cluster) {
            cluster.addListener((before, after, jumped) -> {
                if (jumped) {
                    Instant wall = Instant.now();
                    clockJumped(Duration.between(before.at(wall), after.at(wall)));
                }
            });
        }
        scheduleNext(Duration.ZERO);
    }

    /**
     * The cluster clock jumped by {@code jump} ({@code clock set}/{@code advance}). A jump is silence
     * only for a node that did not answer the previous one: a live kubelet renews its lease right after
     * each jump (its renewal timer is overdue), but this monitor may look first, so a node whose
     * heartbeat moved since the last jump gets the jump added to its last-seen time instead. Running
     * time (real, offset, rate) counts as always.
     */
    void clockJumped(Duration jump) {
        heartbeats.replaceAll((name, hb) -> {
            boolean answeredLastJump = hb.atLastJump() == null || !Objects.equals(hb.atLastJump(), hb.value());
            Instant observedAt =
                    answeredLastJump && !jump.isNegative() ? hb.observedAt().plus(jump) : hb.observedAt();
            return new Heartbeat(hb.value(), observedAt, hb.value());
        });
    }

    public void stop() {
        stopped = true;
        Clock.Timer t = timer;
        if (t != null) {
            t.cancel();
        }
        worker.shutdownNow();
    }

    private void scheduleNext(Duration delay) {
        if (!stopped) {
            timer = clock.schedule(delay, () -> {
                if (!stopped) {
                    // a monitor pass is work in progress for clock steps (ActivityTracker)
                    io.kplane.client.time.ActivityTracker.begin();
                    try {
                        worker.execute(() -> {
                            try {
                                monitorAndReschedule();
                            } finally {
                                io.kplane.client.time.ActivityTracker.end();
                            }
                        });
                    } catch (RuntimeException e) {
                        io.kplane.client.time.ActivityTracker.end();
                    }
                }
            });
        }
    }

    private void monitorAndReschedule() {
        try {
            monitorOnce();
        } catch (RuntimeException e) {
            log.warn("node monitor pass failed: {}", e.toString());
        } finally {
            scheduleNext(monitorPeriod);
        }
    }

    /** One pass over all nodes (public for tests that drive it directly). */
    public void monitorOnce() {
        Instant now = clock.now();
        for (Node node : nodes.lister().list()) {
            String name = node.metadata().name();
            Instant beat = heartbeatOf(node);
            Heartbeat seen = heartbeats.compute(
                    name,
                    (k, old) -> old == null
                            ? new Heartbeat(beat, now)
                            : !Objects.equals(old.value(), beat) ? new Heartbeat(beat, now, old.atLastJump()) : old);
            Duration silence = Duration.between(seen.observedAt(), now);
            boolean silent = silence.compareTo(gracePeriod) > 0;
            // a sync record only for a node this pass acts on (or waits on): a healthy node is not news
            SyncScope scope = (silent && worthRecording(node, silence)) || (!silent && hasUnreachableTaint(node))
                    ? lens.beginSync(name)
                    : SyncScope.NOOP;
            RuntimeException failure = null;
            try {
                if (scope.enabled()) {
                    NodeLifecycleDecision.saw(scope, node, beat, silence, gracePeriod, podEvictionDelay);
                }
                if (silent) {
                    onSilent(node, now, silence);
                } else if (hasUnreachableTaint(node)) {
                    onBack(node);
                }
            } catch (KubeClientException e) {
                failure = e;
                log.warn("cannot update node {}: {}", name, e.getMessage());
            } finally {
                Duration untilEviction = gracePeriod.plus(podEvictionDelay).minus(silence);
                scope.finish(silent && !untilEviction.isNegative() ? untilEviction : null, failure);
            }
        }
        heartbeats.keySet().removeIf(n -> nodes.lister().get(n).isEmpty());
    }

    private Instant heartbeatOf(Node node) {
        String name = node.metadata().name();
        Instant renew = leases.lister()
                .get(Lease.NODE_LEASE_NAMESPACE, name)
                .map(l -> l.spec() == null ? null : l.spec().renewTime())
                .orElse(null);
        if (renew != null) {
            return renew;
        }
        NodeCondition ready = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        return ready == null ? null : ready.lastHeartbeatTime();
    }

    /** Whether a silent node's pass does something (or waits for the eviction delay), so deserves a record. */
    private boolean worthRecording(Node node, Duration silence) {
        NodeCondition ready = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        if (ready == null || !"Unknown".equals(ready.status()) || !hasUnreachableTaint(node)) {
            return true;
        }
        if (silence.compareTo(gracePeriod.plus(podEvictionDelay)) <= 0) {
            return true; // waiting for the eviction delay: the record shows the countdown
        }
        String name = node.metadata().name();
        return !pods.lister()
                .list(p -> name.equals(p.nodeName()) && !p.isTerminal())
                .isEmpty();
    }

    private void onSilent(Node node, Instant now, Duration silence) {
        String name = node.metadata().name();
        SyncScope lens = SyncScope.current();
        NodeCondition ready = node.status() == null ? null : node.status().condition(NodeCondition.READY);
        if (ready == null || !"Unknown".equals(ready.status())) {
            log.info("node {} silent for {}s: marking its status Unknown", name, silence.toSeconds());
            lens.decided(
                    NodeLifecycleDecision.MARK_UNKNOWN,
                    "no heartbeat for " + silence.toSeconds() + "s (grace period " + gracePeriod.toSeconds()
                            + "s): Ready " + (ready == null ? "missing" : ready.status()) + " → Unknown");
            Node written =
                    updateNode(name, n -> n.withStatus(n.status().withConditions(unknownConditions(n, now))), true);
            lens.wrote("update status (Ready=Unknown)", "nodes", name, rv(written), null);
            events.event(node, EventType.NORMAL, "NodeNotReady", "Node " + name + " status is now: NodeNotReady");
            lens.event(EventType.NORMAL, "NodeNotReady", "Node " + name + " status is now: NodeNotReady");
        }
        if (!hasUnreachableTaint(node)) {
            lens.decided(NodeLifecycleDecision.TAINT, UNREACHABLE_TAINT + ":NoSchedule and :NoExecute");
            Node written = updateNode(name, n -> n.withSpec(withTaints(n, now)), false);
            lens.wrote("update (add taints)", "nodes", name, rv(written), null);
        }
        Duration evictAfter = gracePeriod.plus(podEvictionDelay);
        if (silence.compareTo(evictAfter) > 0) {
            failPods(name, now);
        } else if (lens.enabled()) {
            int running = pods.lister()
                    .list(p -> name.equals(p.nodeName()) && !p.isTerminal())
                    .size();
            lens.decided(
                    NodeLifecycleDecision.WAIT_EVICTION,
                    running + " pod(s) marked Failed in "
                            + evictAfter.minus(silence).toSeconds() + "s (podEvictionDelay "
                            + podEvictionDelay.toSeconds() + "s)");
        }
    }

    private void onBack(Node node) {
        String name = node.metadata().name();
        log.info("node {} is posting heartbeats again: removing its unreachable taints", name);
        SyncScope lens = SyncScope.current()
                .decided(
                        NodeLifecycleDecision.UNTAINT,
                        "heartbeat resumed: " + UNREACHABLE_TAINT + " taints removed (its kubelet reports Ready)");
        Node written = updateNode(name, n -> n.withSpec(withoutTaints(n)), false);
        lens.wrote("update (remove taints)", "nodes", name, rv(written), null);
        events.event(node, EventType.NORMAL, "NodeReady", "Node " + name + " status is now: NodeReady");
        lens.event(EventType.NORMAL, "NodeReady", "Node " + name + " status is now: NodeReady");
    }

    private static String rv(io.kplane.api.meta.KubeObject written) {
        return written == null ? null : written.metadata().resourceVersion();
    }

    static List<NodeCondition> unknownConditions(Node node, Instant now) {
        List<NodeCondition> out = new ArrayList<>();
        List<NodeCondition> current =
                node.status() == null ? List.of() : node.status().conditionsOrEmpty();
        boolean hasReady = false;
        for (NodeCondition c : current) {
            hasReady |= NodeCondition.READY.equals(c.type());
            boolean changed = !"Unknown".equals(c.status());
            out.add(new NodeCondition(
                    c.type(),
                    "Unknown",
                    c.lastHeartbeatTime(),
                    changed ? now : c.lastTransitionTime(),
                    UNKNOWN_REASON,
                    UNKNOWN_MESSAGE));
        }
        if (!hasReady) {
            out.add(new NodeCondition(NodeCondition.READY, "Unknown", null, now, UNKNOWN_REASON, UNKNOWN_MESSAGE));
        }
        return out;
    }

    static boolean hasUnreachableTaint(Node node) {
        return node.spec() != null
                && node.spec().taints() != null
                && node.spec().taints().stream()
                        .anyMatch(t -> UNREACHABLE_TAINT.equals(t.path("key").asText()));
    }

    private static NodeSpec withTaints(Node node, Instant now) {
        NodeSpec spec = node.spec() == null ? NodeSpecBuilder.builder().build() : node.spec();
        List<JsonNode> taints = new ArrayList<>(spec.taints() == null ? List.of() : spec.taints());
        for (String effect : List.of("NoSchedule", "NoExecute")) {
            ObjectNode t = Json.mapper()
                    .createObjectNode()
                    .put("key", UNREACHABLE_TAINT)
                    .put("effect", effect);
            if ("NoExecute".equals(effect)) {
                t.put("timeAdded", now.toString());
            }
            taints.add(t);
        }
        return spec.withTaints(taints);
    }

    private static NodeSpec withoutTaints(Node node) {
        List<JsonNode> taints = node.spec().taints().stream()
                .filter(t -> !UNREACHABLE_TAINT.equals(t.path("key").asText()))
                .toList();
        return node.spec().withTaints(taints.isEmpty() ? null : taints);
    }

    /** Returns the node as written, or null when five attempts in a row conflicted. */
    private Node updateNode(String name, UnaryOperator<Node> change, boolean status) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Node fresh = client.nodes().get(name);
            try {
                if (status) {
                    return client.nodes().updateStatus(change.apply(fresh));
                } else {
                    return client.nodes().update(change.apply(fresh));
                }
            } catch (ApiException e) {
                if (!e.isConflict()) {
                    SyncScope.current().wrote(status ? "update status" : "update", "nodes", name, null, e.getMessage());
                    throw e;
                }
            }
        }
        return null;
    }

    private void failPods(String nodeName, Instant now) {
        SyncScope lens = SyncScope.current();
        List<Pod> running = pods.lister().list(p -> nodeName.equals(p.nodeName()) && !p.isTerminal());
        lens.saw("podsOnNode", running.size())
                .decided(
                        NodeLifecycleDecision.EVICT_PODS,
                        running.size() + " pod(s) marked Failed (reason NodeLost, condition DisruptionTarget "
                                + DISRUPTION_REASON + ")");
        for (Pod pod : running) {
            log.info("failing pod {} on lost node {}", pod.key(), nodeName);
            events.event(pod, EventType.NORMAL, "TaintManagerEviction", "Marking for deletion Pod " + pod.key());
            lens.event(EventType.NORMAL, "TaintManagerEviction", "Marking for deletion Pod " + pod.key());
            var podClient = client.pods().inNamespace(pod.metadata().namespace());
            Pod current = pod;
            for (int attempt = 0; attempt < 5 && current != null; attempt++) {
                try {
                    Pod written = podClient.updateStatus(current.withStatus(failedStatus(current, nodeName, now)));
                    lens.wrote("update status (Failed, NodeLost)", "pods", pod.key(), rv(written), null);
                    break;
                } catch (ApiException e) {
                    if (e.isNotFound()) {
                        lens.wrote("update status (Failed, NodeLost)", "pods", pod.key(), null, "NotFound");
                        break;
                    }
                    if (!e.isConflict()) {
                        throw e;
                    }
                    current = podClient
                            .find(pod.metadata().name())
                            .filter(p -> !p.isTerminal())
                            .orElse(null);
                }
            }
        }
    }

    static PodStatus failedStatus(Pod pod, String nodeName, Instant now) {
        PodStatus status = pod.status() == null
                ? io.kplane.api.core.PodStatusBuilder.builder().build()
                : pod.status();
        List<PodCondition> conditions = new ArrayList<>();
        for (PodCondition c : status.conditionsOrEmpty()) {
            if (PodCondition.DISRUPTION_TARGET.equals(c.type())) {
                continue;
            }
            if ((PodCondition.READY.equals(c.type()) || PodCondition.CONTAINERS_READY.equals(c.type())) && c.isTrue()) {
                conditions.add(new PodCondition(c.type(), "False", null, now, null, null));
            } else {
                conditions.add(c);
            }
        }
        conditions.add(new PodCondition(
                PodCondition.DISRUPTION_TARGET, "True", null, now, DISRUPTION_REASON, DISRUPTION_MESSAGE));
        return status.withPhase(PodStatus.FAILED)
                .withConditions(conditions)
                .withReason("NodeLost")
                .withMessage("Node " + nodeName + " which was running pod "
                        + pod.metadata().name() + " is unresponsive");
    }
}
