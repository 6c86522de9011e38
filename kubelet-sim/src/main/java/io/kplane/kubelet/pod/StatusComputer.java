package io.kplane.kubelet.pod;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerState;
import io.kplane.api.core.ContainerStatus;
import io.kplane.api.core.ContainerStatusBuilder;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodCondition;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodStatus;
import io.kplane.api.core.PodStatusBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns the kubelet's records of a pod into the {@code PodStatus} Kubernetes would report: phase
 * (the kubelet's {@code getPhase} rules), container statuses, and the conditions the kubelet owns.
 * Conditions owned by others (PodScheduled, DisruptionTarget, ...) are kept from the current status.
 */
public final class StatusComputer {
    /** The condition types the kubelet writes; everything else in status.conditions is preserved. */
    static final Set<String> KUBELET_CONDITIONS = Set.of(
            PodCondition.INITIALIZED, PodCondition.CONTAINERS_READY, PodCondition.READY, "PodReadyToStartContainers");

    private final String hostIp;

    public StatusComputer(String hostIp) {
        this.hostIp = hostIp;
    }

    /**
     * The status to report at {@code now}, with the kubelet-owned conditions' transition times carried
     * over from {@code previous}: the status this kubelet last reported (upstream's status
     * manager cache), not the watch's copy of the pod, which lags behind the kubelet's own writes.
     * Times are normalised to what the API server keeps (RFC 3339, whole seconds, as upstream's
     * {@code normalizeStatus}), so a status equals the echo of its own write.
     */
    public PodStatus compute(Pod pod, PodRecord record, Instant now, PodStatus previous) {
        now = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        PodSpec spec = pod.spec();
        boolean initialized = record.initContainers.stream().allMatch(ContainerRecord::succeeded)
                && record.initContainers.size() == spec.initContainersOrEmpty().size();
        String phase = record.terminalPhase != null ? record.terminalPhase : phase(spec, record, initialized);
        boolean terminal = PodStatus.SUCCEEDED.equals(phase) || PodStatus.FAILED.equals(phase);

        List<ContainerStatus> initStatuses = new ArrayList<>();
        for (Container c : spec.initContainersOrEmpty()) {
            initStatuses.add(containerStatus(c, record.container(c.name(), true), terminal, null));
        }
        List<ContainerStatus> statuses = new ArrayList<>();
        List<String> unready = new ArrayList<>();
        for (Container c : spec.containersOrEmpty()) {
            ContainerRecord r = record.container(c.name(), false);
            statuses.add(containerStatus(c, r, terminal, initialized ? null : "PodInitializing"));
            if (!r.running) {
                unready.add(c.name());
            }
        }
        List<String> incompleteInit = spec.initContainersOrEmpty().stream()
                .map(Container::name)
                .filter(n -> !record.container(n, true).succeeded())
                .toList();

        PodStatus current = pod.status();
        List<PodCondition> conditions = new ArrayList<>();
        if (current != null) {
            current.conditionsOrEmpty().stream()
                    .filter(c -> !KUBELET_CONDITIONS.contains(c.type()))
                    .forEach(conditions::add);
        }
        if (conditions.stream().noneMatch(c -> PodCondition.POD_SCHEDULED.equals(c.type()))) {
            conditions.add(new PodCondition(PodCondition.POD_SCHEDULED, "True", null, record.startTime, null, null));
        }
        conditions.add(condition(previous, "PodReadyToStartContainers", terminal ? "False" : "True", null, null, now));
        conditions.add(
                incompleteInit.isEmpty() || (terminal && PodStatus.SUCCEEDED.equals(phase))
                        ? condition(previous, PodCondition.INITIALIZED, "True", null, null, now)
                        : condition(
                                previous,
                                PodCondition.INITIALIZED,
                                "False",
                                "ContainersNotInitialized",
                                "containers with incomplete status: " + bracket(incompleteInit),
                                now));
        boolean ready = !terminal && unready.isEmpty() && initialized;
        String notReadyReason = terminal ? "PodCompleted" : "ContainersNotReady";
        String notReadyMessage = terminal ? null : "containers with unready status: " + bracket(unready);
        conditions.add(
                ready
                        ? condition(previous, PodCondition.CONTAINERS_READY, "True", null, null, now)
                        : condition(
                                previous,
                                PodCondition.CONTAINERS_READY,
                                "False",
                                notReadyReason,
                                notReadyMessage,
                                now));
        conditions.add(
                ready
                        ? condition(previous, PodCondition.READY, "True", null, null, now)
                        : condition(previous, PodCondition.READY, "False", notReadyReason, notReadyMessage, now));

        return normalized(PodStatusBuilder.builder()
                .phase(phase)
                .conditions(conditions)
                .reason(terminal ? record.reason : null)
                .message(terminal ? record.message : null)
                .hostIP(hostIp)
                .hostIPs(List.of(ip(hostIp)))
                .podIP(hostIp)
                .podIPs(List.of(ip(hostIp)))
                .startTime(record.startTime)
                .initContainerStatuses(initStatuses.isEmpty() ? null : initStatuses)
                .containerStatuses(statuses)
                .qosClass(current != null && current.qosClass() != null ? current.qosClass() : "BestEffort")
                .build());
    }

    /** The status as the API server will keep it: every time at whole seconds (a JSON round trip). */
    private static PodStatus normalized(PodStatus status) {
        return io.kplane.api.json.Json.mapper().convertValue(status, PodStatus.class);
    }

    private static com.fasterxml.jackson.databind.JsonNode ip(String ip) {
        return io.kplane.api.json.Json.mapper().createObjectNode().put("ip", ip);
    }

    static String restartPolicy(PodSpec spec) {
        return spec.restartPolicy() == null ? PodSpec.RESTART_ALWAYS : spec.restartPolicy();
    }

    /** The kubelet's getPhase, over our records. */
    static String phase(PodSpec spec, PodRecord record, boolean initialized) {
        String policy = restartPolicy(spec);
        if (!initialized) {
            boolean initFailed = record.initContainers.stream().anyMatch(ContainerRecord::failed);
            return initFailed && PodSpec.RESTART_NEVER.equals(policy) ? PodStatus.FAILED : PodStatus.PENDING;
        }
        int running = 0;
        int stopped = 0;
        int succeeded = 0;
        int waiting = 0;
        for (Container c : spec.containersOrEmpty()) {
            ContainerRecord r = record.container(c.name(), false);
            if (r.running) {
                running++;
            } else if (r.terminated != null) {
                stopped++;
                if (r.succeeded()) {
                    succeeded++;
                }
            } else {
                waiting++;
            }
        }
        if (running > 0) {
            return PodStatus.RUNNING;
        }
        if (waiting > 0) {
            return PodStatus.PENDING;
        }
        if (stopped > 0) {
            if (PodSpec.RESTART_ALWAYS.equals(policy)) {
                return PodStatus.RUNNING;
            }
            if (stopped == succeeded) {
                return PodStatus.SUCCEEDED;
            }
            if (PodSpec.RESTART_NEVER.equals(policy)) {
                return PodStatus.FAILED;
            }
            return PodStatus.RUNNING;
        }
        return PodStatus.PENDING;
    }

    private static ContainerStatus containerStatus(
            Container c, ContainerRecord r, boolean podTerminal, String notStartedReason) {
        ContainerState state;
        ContainerState lastState = r.lastTerminated == null ? null : ContainerState.terminated(r.lastTerminated);
        if (r.running) {
            state = ContainerState.running(r.startedAt);
        } else if (r.waitingReason != null && !podTerminal) {
            state = ContainerState.waiting(r.waitingReason, r.waitingMessage);
            if (r.terminated != null) {
                lastState = ContainerState.terminated(r.terminated);
            }
        } else if (r.terminated != null) {
            state = ContainerState.terminated(r.terminated);
        } else {
            state = ContainerState.waiting(notStartedReason != null ? notStartedReason : "ContainerCreating", null);
        }
        return ContainerStatusBuilder.builder()
                .name(c.name())
                .state(state)
                .lastState(lastState == null ? new ContainerState(null, null, null) : lastState)
                .ready(r.running)
                .restartCount(r.restartCount())
                .image(c.image())
                .imageID(r.imageId == null ? "" : r.imageId)
                .containerID(r.containerId)
                .started(r.running)
                .build();
    }

    private static PodCondition condition(
            PodStatus current, String type, String status, String reason, String message, Instant now) {
        PodCondition old = current == null ? null : current.condition(type);
        Instant transition = old != null && status.equals(old.status()) && old.lastTransitionTime() != null
                ? old.lastTransitionTime()
                : now;
        return new PodCondition(type, status, null, transition, reason, message);
    }

    private static String bracket(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }
}
