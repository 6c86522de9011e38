package io.kplane.controllers.job;

import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import io.kplane.client.informer.ResourceEventHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Upstream's {@code job_controller_terminated_pods_tracking_finalizer_total{event}}, counted where upstream
 * counts it (recordFinishedPodWithTrackingFinalizer in the pod event handlers): {@code add} when a pod
 * becomes a finished pod (phase Succeeded or Failed) that still holds the {@code batch.kubernetes.io/job-tracking}
 * finalizer, {@code delete} when it stops being one (its finalizer removed, or the pod deleted). The gap
 * between the two is how many finished pods wait for the controller to count them.
 */
final class TerminatedPodsTrackingFinalizerMetric implements ResourceEventHandler<Pod> {
    static final String NAME = "job_controller_terminated_pods_tracking_finalizer";
    private static final String HELP = "The number of terminated pods (phase=Failed|Succeeded) that have the finalizer "
            + "batch.kubernetes.io/job-tracking. The event label can be \"add\" or \"delete\".";

    private final Counter added;
    private final Counter deleted;

    TerminatedPodsTrackingFinalizerMetric(MeterRegistry registry) {
        this.added = Counter.builder(NAME).description(HELP).tag("event", "add").register(registry);
        this.deleted =
                Counter.builder(NAME).description(HELP).tag("event", "delete").register(registry);
    }

    @Override
    public void onAdd(Pod pod, boolean isInInitialList) {
        record(null, pod);
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
        record(oldPod, newPod);
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
        record(pod, null);
    }

    private void record(Pod oldPod, Pod newPod) {
        boolean was = finishedWithTrackingFinalizer(oldPod);
        boolean is = finishedWithTrackingFinalizer(newPod);
        if (was != is) {
            (is ? added : deleted).increment();
        }
    }

    static boolean finishedWithTrackingFinalizer(Pod pod) {
        return pod != null
                && (PodStatus.SUCCEEDED.equals(pod.phase()) || PodStatus.FAILED.equals(pod.phase()))
                && JobPods.hasTrackingFinalizer(pod);
    }
}
