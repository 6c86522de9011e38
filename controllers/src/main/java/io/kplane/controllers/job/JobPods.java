package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.batch.JobSpec;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodStatus;
import java.util.List;

/** Questions the Job controller asks about one pod. */
final class JobPods {
    private JobPods() {}

    /** Not finished and not being deleted: the pod still does (or will do) work. */
    static boolean isActive(Pod pod) {
        return !PodStatus.SUCCEEDED.equals(pod.phase())
                && !PodStatus.FAILED.equals(pod.phase())
                && pod.metadata().deletionTimestamp() == null;
    }

    /** Succeeded or Failed. */
    static boolean isTerminal(Pod pod) {
        return PodStatus.SUCCEEDED.equals(pod.phase()) || PodStatus.FAILED.equals(pod.phase());
    }

    /** Being deleted and not yet finished. */
    static boolean isTerminating(Pod pod) {
        return pod.metadata().deletionTimestamp() != null
                && !PodStatus.SUCCEEDED.equals(pod.phase())
                && !PodStatus.FAILED.equals(pod.phase());
    }

    static boolean hasTrackingFinalizer(Pod pod) {
        return pod.metadata().finalizersOrEmpty().contains(Job.TRACKING_FINALIZER);
    }

    /**
     * Whether the pod counts as failed: phase Failed, or (unless only failed pods are replaced)
     * deleted before it succeeded — so an orphaned, deleted pod is not silently lost.
     */
    static boolean isFailed(Pod pod, Job job) {
        if (PodStatus.FAILED.equals(pod.phase())) {
            return true;
        }
        if (onlyReplaceFailedPods(job)) {
            return false;
        }
        return pod.metadata().deletionTimestamp() != null && !PodStatus.SUCCEEDED.equals(pod.phase());
    }

    /** podReplacementPolicy Failed (forced when a podFailurePolicy is set): wait for terminating pods. */
    static boolean onlyReplaceFailedPods(Job job) {
        return JobSpec.REPLACE_FAILED.equals(job.spec().podReplacementPolicy())
                || job.spec().podFailurePolicy() != null;
    }

    static int countReady(List<Pod> pods) {
        int ready = 0;
        for (Pod pod : pods) {
            if (pod.isReady()) {
                ready++;
            }
        }
        return ready;
    }

    static int countTerminating(List<Pod> pods) {
        int n = 0;
        for (Pod pod : pods) {
            if (isTerminating(pod)) {
                n++;
            }
        }
        return n;
    }

    /** Sum of container (and init container) restarts of Pending/Running pods, for restartPolicy OnFailure. */
    static long restartsOfRunningPods(List<Pod> pods) {
        long sum = 0;
        for (Pod pod : pods) {
            if (PodStatus.RUNNING.equals(pod.phase()) || PodStatus.PENDING.equals(pod.phase())) {
                PodStatus status = pod.status();
                if (status.initContainerStatuses() != null) {
                    for (ContainerStatus cs : status.initContainerStatuses()) {
                        sum += cs.restartCount() == null ? 0 : cs.restartCount();
                    }
                }
                for (ContainerStatus cs : status.containerStatusesOrEmpty()) {
                    sum += cs.restartCount() == null ? 0 : cs.restartCount();
                }
            }
        }
        return sum;
    }
}
