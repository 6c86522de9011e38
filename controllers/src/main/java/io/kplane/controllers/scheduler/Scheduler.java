package io.kplane.controllers.scheduler;

import io.kplane.api.core.EventType;
import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.meta.ObjectKeys;
import io.kplane.api.util.DaemonThreads;
import io.kplane.client.ApiException;
import io.kplane.client.KubeClient;
import io.kplane.client.controller.Controller;
import io.kplane.client.controller.Reconciler;
import io.kplane.client.controller.Result;
import io.kplane.client.events.EventRecorder;
import io.kplane.client.informer.ResourceEventHandler;
import io.kplane.client.informer.SharedInformer;
import io.kplane.client.lens.SyncScope;
import io.kplane.client.time.Clock;
import io.kplane.client.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds pending pods without {@code spec.nodeName} (schedulerName {@code default-scheduler} or unset) to
 * a Ready node through {@code pods/binding}. A pod that fits nowhere gets {@code PodScheduled=False}
 * (reason Unschedulable) and a FailedScheduling event, and is tried again whenever a node or the pods
 * on nodes change (and every {@code retryPeriod} as a safety net).
 *
 * <p>One worker, so placements never race each other; pods bound but not yet seen bound in the cache
 * are remembered ("assumed", as kube-scheduler does) so a burst is spread correctly.
 */
public final class Scheduler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);
    public static final String NAME = "default-scheduler";

    private final SharedInformer<Pod> pods;
    private final SharedInformer<Node> nodes;
    private final KubeClient client;
    private final EventRecorder events;
    private final Clock clock;
    private final Duration retryPeriod;
    private final RateLimitingQueue<String> queue;
    private final Controller controller;
    /** pod key → node, for pods bound by us that the cache does not show bound yet. */
    private final Map<String, String> assumed = new ConcurrentHashMap<>();
    /** Pods that did not fit: retried when nodes or node usage change. */
    private final Map<String, Boolean> unschedulable = new ConcurrentHashMap<>();

    private final java.util.concurrent.ExecutorService binders =
            java.util.concurrent.Executors.newFixedThreadPool(8, DaemonThreads.named("scheduler-bind"));

    public Scheduler(
            SharedInformer<Pod> pods,
            SharedInformer<Node> nodes,
            KubeClient client,
            EventRecorder events,
            Clock clock,
            Duration retryPeriod) {
        this.pods = pods;
        this.nodes = nodes;
        this.client = client;
        this.events = events;
        this.clock = clock;
        this.retryPeriod = retryPeriod;
        this.queue = RateLimitingQueue.create(clock, pods.lens(), "scheduler");
        this.controller = Controller.builder()
                .name(NAME)
                .workers(1)
                .queue(queue)
                .reconciler(this)
                .lens(pods.lens(), "scheduler", "scheduler")
                .build();
        pods.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod, boolean isInInitialList) {
                if (needsScheduling(pod)) {
                    queue.add(pod.key());
                }
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                if (needsScheduling(newPod)) {
                    queue.add(newPod.key());
                } else if (newPod.nodeName() != null) {
                    // the assumption is dropped when the cache shows the binding (see podsPerNode)
                    if (newPod.isTerminal() && !oldPod.isTerminal()) {
                        retryUnschedulable(); // capacity freed
                    }
                }
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                assumed.remove(pod.key());
                unschedulable.remove(pod.key());
                if (pod.nodeName() != null) {
                    retryUnschedulable();
                }
            }
        });
        nodes.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node, boolean isInInitialList) {
                retryUnschedulable();
            }

            @Override
            public void onUpdate(Node oldNode, Node newNode) {
                if (oldNode.isReady() != newNode.isReady()
                        || oldNode.isUnschedulable() != newNode.isUnschedulable()
                        || !Objects.equals(
                                oldNode.metadata().labels(), newNode.metadata().labels())
                        || !Objects.equals(
                                oldNode.status() == null
                                        ? null
                                        : oldNode.status().allocatable(),
                                newNode.status() == null
                                        ? null
                                        : newNode.status().allocatable())) {
                    retryUnschedulable();
                }
            }
        });
    }

    static boolean needsScheduling(Pod pod) {
        String scheduler = pod.spec() == null ? null : pod.spec().schedulerName();
        return pod.spec() != null
                && (pod.nodeName() == null || pod.nodeName().isEmpty())
                && (scheduler == null || scheduler.isEmpty() || NAME.equals(scheduler))
                && !pod.isTerminal()
                && pod.metadata().deletionTimestamp() == null;
    }

    private void retryUnschedulable() {
        unschedulable.keySet().forEach(queue::add);
    }

    public void startWorkers() {
        controller.start();
    }

    public void stop(Duration timeout) throws InterruptedException {
        controller.stop(timeout);
        binders.shutdownNow();
    }

    @Override
    public Result reconcile(String key) {
        ObjectKeys.Key k = ObjectKeys.split(key);
        String ns = k.namespace();
        String name = k.name();
        SyncScope lens = SyncScope.current().resource("pods");
        Pod pod = pods.lister().get(ns, name).orElse(null);
        if (pod == null || !needsScheduling(pod) || assumed.containsKey(key)) {
            unschedulable.remove(key);
            lens.decided(
                    "nothing",
                    pod == null
                            ? "the pod is gone"
                            : assumed.containsKey(key)
                                    ? "assumed on node " + assumed.get(key) + ", its binding is in flight"
                                    : "does not need scheduling (bound, finished, being deleted or another scheduler's)");
            return Result.done();
        }
        PlacementDecision decision = PodPlacement.place(pod, nodes.lister().list(), podsPerNode());
        if (lens.enabled()) {
            lens.object(pod.uid(), pod.metadata().resourceVersion());
            decision.verdicts().forEach((node, verdict) -> lens.saw("node " + node, verdict));
        }
        if (!decision.isScheduled()) {
            unschedulable.put(key, true);
            lens.decided("unschedulable", decision.unschedulableMessage());
            markUnschedulable(pod, decision.unschedulableMessage());
            return Result.requeueAfter(retryPeriod);
        }
        unschedulable.remove(key);
        // upstream's words: "Successfully bound pod to node"; the binding POST itself runs in the background
        // (below), so its outcome is the pod's next watch event and the Scheduled event, not this record's writes
        lens.decided("bound", "to node " + decision.node() + " (assumed; pods/binding is POSTed in the background)");
        // like kube-scheduler's binding cycle: the placement is assumed at once, the POST runs in the
        // background, so one slow write does not hold up the next placement
        assumed.put(key, decision.node());
        binders.execute(() -> bind(pod, key, decision.node()));
        return Result.done();
    }

    private void bind(Pod pod, String key, String node) {
        String ns = pod.metadata().namespace();
        try {
            client.pods().inNamespace(ns).bind(pod.metadata().name(), node);
            log.info("bound pod {} to node {}", key, node);
            events.event(pod, EventType.NORMAL, "Scheduled", "Successfully assigned " + key + " to " + node);
        } catch (ApiException e) {
            assumed.remove(key);
            if (!e.isConflict() && !e.isNotFound()) {
                log.warn("binding pod {} to {} failed: {}", key, node, e.getMessage());
                queue.addRateLimited(key);
            }
        } catch (RuntimeException e) {
            assumed.remove(key);
            log.warn("binding pod {} to {} failed: {}", key, node, e.toString());
            queue.addRateLimited(key);
        }
    }

    private Map<String, Integer> podsPerNode() {
        Map<String, Integer> count = new HashMap<>();
        for (Pod p : pods.lister().list()) {
            String node = p.nodeName();
            if (node != null) {
                assumed.remove(p.key()); // the cache has caught up with our binding
            } else {
                node = assumed.get(p.key());
            }
            if (node != null && !p.isTerminal()) {
                count.merge(node, 1, Integer::sum);
            }
        }
        return count;
    }

    private void markUnschedulable(Pod pod, String message) {
        PodCondition current = pod.status() == null ? null : pod.status().condition(PodCondition.POD_SCHEDULED);
        if (current != null && "False".equals(current.status()) && message.equals(current.message())) {
            return; // already says so; no repeated writes or events for an unchanged verdict
        }
        log.info("pod {} is unschedulable: {}", pod.key(), message);
        events.event(pod, EventType.WARNING, "FailedScheduling", message);
        SyncScope lens = SyncScope.current().event(EventType.WARNING, "FailedScheduling", message);
        PodStatus status = pod.status() == null
                ? PodStatusBuilder.builder().phase(PodStatus.PENDING).build()
                : pod.status();
        List<PodCondition> conditions = new ArrayList<>();
        status.conditionsOrEmpty().stream()
                .filter(c -> !PodCondition.POD_SCHEDULED.equals(c.type()))
                .forEach(conditions::add);
        conditions.add(
                new PodCondition(PodCondition.POD_SCHEDULED, "False", null, clock.now(), "Unschedulable", message));
        try {
            Pod written = client.pods()
                    .inNamespace(pod.metadata().namespace())
                    .updateStatus(
                            pod.withStatus(status.withPhase(status.phase() == null ? PodStatus.PENDING : status.phase())
                                    .withConditions(conditions)));
            lens.wrote(
                    "update status (PodScheduled=False)",
                    "pods",
                    pod.key(),
                    written.metadata().resourceVersion(),
                    null);
        } catch (ApiException e) {
            lens.wrote("update status (PodScheduled=False)", "pods", pod.key(), null, e.getMessage());
            if (!e.isConflict() && !e.isNotFound()) {
                throw e;
            }
            // a newer version will come through the informer and be retried
        }
    }
}
