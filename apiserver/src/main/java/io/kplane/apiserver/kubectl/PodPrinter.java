package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.at;
import static io.kplane.apiserver.kubectl.ObjectFields.list;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pods: NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES. STATUS follows
 * kubectl's {@code printPod}: the phase, overridden by the pod reason, init-container progress
 * ({@code Init:0/1}, {@code Init:Error}), the last container's waiting or terminated reason
 * ({@code ContainerCreating}, {@code CrashLoopBackOff}, {@code Completed}, {@code Error}), and
 * {@code Terminating} for a pod being deleted.
 */
final class PodPrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.nameColumn(),
            TableColumn.of("Ready", "The aggregate readiness state of this pod for accepting traffic."),
            TableColumn.of("Status", "The aggregate status of the containers in this pod."),
            TableColumn.of(
                    "Restarts",
                    "The number of times the containers in this pod have been restarted "
                            + "and when the last container in this pod has restarted."),
            TableColumn.ageColumn(),
            TableColumn.wide("IP", "podIP address allocated to the pod. Routable at least within the cluster."),
            TableColumn.wide("Node", "NodeName indicates in which node this pod is scheduled."),
            TableColumn.wide(
                    "Nominated Node",
                    "nominatedNodeName is set only when this pod preempts other pods " + "on the node."),
            TableColumn.wide(
                    "Readiness Gates", "If specified, all readiness gates will be evaluated for pod " + "readiness."));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode pod, Instant now) {
        List<JsonNode> containers = list(pod, "spec.containers");
        List<JsonNode> initContainers = list(pod, "spec.initContainers");
        Set<String> restartableInit = new HashSet<>();
        int totalContainers = containers.size();
        for (JsonNode c : initContainers) {
            if ("Always".equals(c.path("restartPolicy").asText())) {
                restartableInit.add(c.path("name").asText());
                totalContainers++;
            }
        }
        int restarts = 0;
        int restartableInitRestarts = 0;
        int ready = 0;
        Instant lastRestart = null;
        Instant lastRestartableInitRestart = null;
        String phase = text(pod, "status.phase");
        String reason = text(pod, "status.reason").isEmpty() ? phase : text(pod, "status.reason");
        for (JsonNode c : list(pod, "status.conditions")) {
            if ("PodScheduled".equals(c.path("type").asText())
                    && "SchedulingGated".equals(c.path("reason").asText())) {
                reason = "SchedulingGated";
            }
        }

        boolean initializing = false;
        List<JsonNode> initStatuses = list(pod, "status.initContainerStatuses");
        for (int i = 0; i < initStatuses.size(); i++) {
            JsonNode c = initStatuses.get(i);
            restarts += c.path("restartCount").asInt();
            Instant finished = time(c, "lastState.terminated.finishedAt");
            lastRestart = later(lastRestart, finished);
            boolean restartable = restartableInit.contains(c.path("name").asText());
            if (restartable) {
                restartableInitRestarts += c.path("restartCount").asInt();
                lastRestartableInitRestart = later(lastRestartableInitRestart, finished);
            }
            JsonNode terminated = at(c, "state.terminated");
            JsonNode waiting = at(c, "state.waiting");
            if (terminated.isObject() && terminated.path("exitCode").asInt() == 0) {
                continue;
            } else if (restartable && c.path("started").asBoolean(false)) {
                if (c.path("ready").asBoolean(false)) {
                    ready++;
                }
                continue;
            } else if (terminated.isObject()) {
                String r = terminated.path("reason").asText();
                if (r.isEmpty()) {
                    int signal = terminated.path("signal").asInt();
                    reason = signal != 0
                            ? "Init:Signal:" + signal
                            : "Init:ExitCode:" + terminated.path("exitCode").asInt();
                } else {
                    reason = "Init:" + r;
                }
            } else if (waiting.isObject()
                    && !waiting.path("reason").asText().isEmpty()
                    && !"PodInitializing".equals(waiting.path("reason").asText())) {
                reason = "Init:" + waiting.path("reason").asText();
            } else {
                reason = "Init:" + i + "/" + initContainers.size();
            }
            initializing = true;
            break;
        }

        if (!initializing || ObjectFields.hasTrueCondition(pod, "status.conditions", "Initialized")) {
            restarts = restartableInitRestarts;
            lastRestart = lastRestartableInitRestart;
            boolean hasRunning = false;
            List<JsonNode> statuses = list(pod, "status.containerStatuses");
            for (int i = statuses.size() - 1; i >= 0; i--) {
                JsonNode c = statuses.get(i);
                restarts += c.path("restartCount").asInt();
                lastRestart = later(lastRestart, time(c, "lastState.terminated.finishedAt"));
                JsonNode waiting = at(c, "state.waiting");
                JsonNode terminated = at(c, "state.terminated");
                if (waiting.isObject() && !waiting.path("reason").asText().isEmpty()) {
                    reason = waiting.path("reason").asText();
                } else if (terminated.isObject()
                        && !terminated.path("reason").asText().isEmpty()) {
                    reason = terminated.path("reason").asText();
                } else if (terminated.isObject()) {
                    int signal = terminated.path("signal").asInt();
                    reason = signal != 0
                            ? "Signal:" + signal
                            : "ExitCode:" + terminated.path("exitCode").asInt();
                } else if (c.path("ready").asBoolean(false)
                        && at(c, "state.running").isObject()) {
                    hasRunning = true;
                    ready++;
                }
            }
            if ("Completed".equals(reason) && hasRunning) {
                reason = ObjectFields.hasTrueCondition(pod, "status.conditions", "Ready") ? "Running" : "NotReady";
            }
        }

        boolean deleting = !text(pod, "metadata.deletionTimestamp").isEmpty();
        if (deleting && "NodeLost".equals(text(pod, "status.reason"))) {
            reason = "Unknown";
        } else if (deleting && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
            reason = "Terminating";
        }

        String restartsCell = Integer.toString(restarts);
        if (restarts != 0 && lastRestart != null) {
            restartsCell = restarts + " (" + HumanDuration.since(lastRestart, now) + " ago)";
        }

        String podIp = "";
        List<JsonNode> podIps = list(pod, "status.podIPs");
        if (!podIps.isEmpty()) {
            podIp = podIps.get(0).path("ip").asText();
        }
        if (podIp.isEmpty()) {
            podIp = text(pod, "status.podIP");
        }
        List<Object> cells = new ArrayList<>();
        cells.add(text(pod, "metadata.name"));
        cells.add(ready + "/" + totalContainers);
        cells.add(reason);
        cells.add(restartsCell);
        cells.add(HumanDuration.since(time(pod, "metadata.creationTimestamp"), now));
        cells.add(podIp.isEmpty() ? "<none>" : podIp);
        cells.add(ObjectFields.textOr(pod, "spec.nodeName", "<none>"));
        cells.add(ObjectFields.textOr(pod, "status.nominatedNodeName", "<none>"));
        cells.add(readinessGates(pod));
        return cells;
    }

    private static String readinessGates(JsonNode pod) {
        List<JsonNode> gates = list(pod, "spec.readinessGates");
        if (gates.isEmpty()) {
            return "<none>";
        }
        int trueGates = 0;
        for (JsonNode gate : gates) {
            if (ObjectFields.hasTrueCondition(
                    pod, "status.conditions", gate.path("conditionType").asText())) {
                trueGates++;
            }
        }
        return trueGates + "/" + gates.size();
    }

    private static Instant later(Instant a, Instant b) {
        if (b == null) {
            return a;
        }
        return a == null || a.isBefore(b) ? b : a;
    }
}
