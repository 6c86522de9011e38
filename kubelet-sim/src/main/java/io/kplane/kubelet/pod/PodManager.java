package io.kplane.kubelet.pod;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.client.informer.ResourceEventHandler;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the node's pods from the informer (watch with {@code fieldSelector=spec.nodeName=<node>})
 * and hands each to its own {@link PodWorker}. Admits at most {@code maxPods} non-terminal pods; a
 * pod beyond that fails at once as the kubelet does (reason OutOfpods).
 */
public final class PodManager implements ResourceEventHandler<Pod> {
    private static final Logger log = LoggerFactory.getLogger(PodManager.class);

    private final WorkerSettings settings;
    private final int maxPods;
    private final Map<String, PodWorker> workers = new ConcurrentHashMap<>();
    private final Set<String> rejected = ConcurrentHashMap.newKeySet();

    public PodManager(WorkerSettings settings, int maxPods) {
        this.settings = settings;
        this.maxPods = maxPods;
    }

    @Override
    public void onAdd(Pod pod, boolean isInInitialList) {
        upsert(pod);
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
        upsert(newPod);
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
        PodWorker worker = workers.get(pod.metadata().uid());
        if (worker != null) {
            worker.removed();
        } else {
            // known only on disk (e.g. deleted while the kubelet was down): clean up through a worker
            if (settings.stateStore().load(pod.metadata().uid()).isPresent()) {
                PodWorker w = new PodWorker(settings, pod);
                workers.put(pod.metadata().uid(), w);
                w.removed();
            }
        }
        rejected.remove(pod.metadata().uid());
    }

    private void upsert(Pod pod) {
        if (!settings.nodeName().equals(pod.nodeName())) {
            return;
        }
        String uid = pod.metadata().uid();
        workers.values().removeIf(PodWorker::isFinished);
        PodWorker worker = workers.get(uid);
        if (worker == null) {
            if (rejected.contains(uid)) {
                return;
            }
            if (!pod.isTerminal() && !settings.stateStore().load(uid).isPresent() && activePods() >= maxPods) {
                reject(pod);
                return;
            }
            worker = new PodWorker(settings, pod);
            workers.put(uid, worker);
            worker.start();
        }
        worker.update(pod);
    }

    private long activePods() {
        return workers.values().stream().filter(PodWorker::isActive).count();
    }

    private void reject(Pod pod) {
        rejected.add(pod.metadata().uid());
        String message = "Node didn't have enough resource: pods, requested: 1, used: " + activePods() + ", capacity: "
                + maxPods;
        log.info(
                "rejecting pod {}/{}: {}",
                pod.metadata().namespace(),
                pod.metadata().name(),
                message);
        PodStatus base = pod.status() == null
                ? io.kplane.api.core.PodStatusBuilder.builder().build()
                : pod.status();
        settings.statusWriter()
                .writeStatus(
                        pod,
                        base.withPhase(PodStatus.FAILED).withReason("OutOfpods").withMessage(message));
    }

    /**
     * The resourceVersion of the newest copy of the pod its worker has completed a pass over: once it
     * reaches a version, every earlier watch echo has been handled (the worker syncs the latest copy).
     */
    public java.util.Optional<String> lastSyncedResourceVersion(String uid) {
        return java.util.Optional.ofNullable(workers.get(uid)).map(PodWorker::lastSyncedResourceVersion);
    }

    /** Number of pods this kubelet currently runs (not finished). */
    public int runningPods() {
        return (int) activePods();
    }

    public void shutdown() {
        workers.values().forEach(PodWorker::abandon);
    }
}
