package io.kplane.controllers.job;

import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order in which surplus active pods are deleted: cheapest to lose first. Mirrors Kubernetes'
 * {@code controller.ActivePods}: unassigned &lt; assigned, Pending &lt; Unknown &lt; Running,
 * not ready &lt; ready, ready for a shorter time &lt; longer, more container restarts &lt; fewer,
 * newer &lt; older (a missing timestamp sorts first).
 */
public final class ActivePodRanking {
    private static final Map<String, Integer> PHASE_ORDINAL =
            Map.of(PodStatus.PENDING, 0, PodStatus.UNKNOWN, 1, PodStatus.RUNNING, 2);

    /** Sorts so that the first element is the pod to delete first. */
    public static final Comparator<Pod> DELETION_ORDER = ActivePodRanking::compare;

    private ActivePodRanking() {}

    static int compare(Pod a, Pod b) {
        boolean aAssigned = !isEmpty(a.nodeName());
        boolean bAssigned = !isEmpty(b.nodeName());
        if (!java.util.Objects.equals(a.nodeName(), b.nodeName()) && aAssigned != bAssigned) {
            return aAssigned ? 1 : -1;
        }
        int byPhase = Integer.compare(phaseOrdinal(a), phaseOrdinal(b));
        if (byPhase != 0) {
            return byPhase;
        }
        boolean aReady = a.isReady();
        boolean bReady = b.isReady();
        if (aReady != bReady) {
            return aReady ? 1 : -1;
        }
        if (aReady) {
            int byReadyTime = newerOrZeroFirst(readyTime(a), readyTime(b));
            if (byReadyTime != 0) {
                return byReadyTime;
            }
        }
        int byRestarts = Integer.compare(maxContainerRestarts(b), maxContainerRestarts(a));
        if (byRestarts != 0) {
            return byRestarts;
        }
        return newerOrZeroFirst(a.metadata().creationTimestamp(), b.metadata().creationTimestamp());
    }

    /** Sorts a copy: the pods to remove first come first. */
    public static List<Pod> sortedForDeletion(List<Pod> pods) {
        return pods.stream().sorted(DELETION_ORDER).toList();
    }

    private static int phaseOrdinal(Pod pod) {
        // Phases outside the table (absent) rank like Pending, as Go's map lookup yields 0.
        return PHASE_ORDINAL.getOrDefault(pod.phase() == null ? "" : pod.phase(), 0);
    }

    private static Instant readyTime(Pod pod) {
        PodCondition ready = pod.status() == null ? null : pod.status().condition(PodCondition.READY);
        return ready == null ? null : ready.lastTransitionTime();
    }

    static int maxContainerRestarts(Pod pod) {
        int max = 0;
        if (pod.status() != null) {
            for (ContainerStatus cs : pod.status().containerStatusesOrEmpty()) {
                if (cs.restartCount() != null) {
                    max = Math.max(max, cs.restartCount());
                }
            }
        }
        return max;
    }

    /** "afterOrZero": a missing time sorts first, otherwise the later time sorts first. */
    private static int newerOrZeroFirst(Instant a, Instant b) {
        if (a == null || b == null) {
            if (a == null && b == null) {
                return 0;
            }
            return a == null ? -1 : 1;
        }
        return b.compareTo(a);
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }
}
