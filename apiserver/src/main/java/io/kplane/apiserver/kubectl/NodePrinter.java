package io.kplane.apiserver.kubectl;

import static io.kplane.apiserver.kubectl.ObjectFields.list;
import static io.kplane.apiserver.kubectl.ObjectFields.text;
import static io.kplane.apiserver.kubectl.ObjectFields.textOr;
import static io.kplane.apiserver.kubectl.ObjectFields.time;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.api.util.HumanDuration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/** Nodes: NAME STATUS ROLES AGE VERSION, wide INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
final class NodePrinter implements ResourcePrinter {
    private static final List<TableColumn> COLUMNS = List.of(
            TableColumn.nameColumn(),
            TableColumn.of("Status", "The status of the node"),
            TableColumn.of("Roles", "The roles of the node"),
            TableColumn.ageColumn(),
            TableColumn.of("Version", "Kubelet Version reported by the node."),
            TableColumn.wide("Internal-IP", "List of addresses reachable to the node."),
            TableColumn.wide("External-IP", "List of addresses reachable to the node."),
            TableColumn.wide(
                    "OS-Image",
                    "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy))."),
            TableColumn.wide(
                    "Kernel-Version",
                    "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
            TableColumn.wide(
                    "Container-Runtime",
                    "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2)."));

    @Override
    public List<TableColumn> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode node, Instant now) {
        List<String> status = new ArrayList<>();
        for (JsonNode c : list(node, "status.conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                status.add("True".equals(c.path("status").asText()) ? "Ready" : "NotReady");
            }
        }
        if (status.isEmpty()) {
            status.add("Unknown");
        }
        if (ObjectFields.at(node, "spec.unschedulable").asBoolean(false)) {
            status.add("SchedulingDisabled");
        }
        TreeSet<String> roles = new TreeSet<>();
        Iterator<String> labels = ObjectFields.at(node, "metadata.labels").fieldNames();
        while (labels.hasNext()) {
            String label = labels.next();
            if (label.startsWith("node-role.kubernetes.io/")) {
                String role = label.substring("node-role.kubernetes.io/".length());
                if (!role.isEmpty()) {
                    roles.add(role);
                }
            } else if (label.equals("kubernetes.io/role")) {
                String role =
                        ObjectFields.at(node, "metadata.labels").path(label).asText();
                if (!role.isEmpty()) {
                    roles.add(role);
                }
            }
        }
        return List.of(
                text(node, "metadata.name"),
                String.join(",", status),
                roles.isEmpty() ? "<none>" : String.join(",", roles),
                HumanDuration.since(time(node, "metadata.creationTimestamp"), now),
                text(node, "status.nodeInfo.kubeletVersion"),
                address(node, "InternalIP"),
                address(node, "ExternalIP"),
                textOr(node, "status.nodeInfo.osImage", "<unknown>"),
                textOr(node, "status.nodeInfo.kernelVersion", "<unknown>"),
                textOr(node, "status.nodeInfo.containerRuntimeVersion", "<unknown>"));
    }

    private static String address(JsonNode node, String type) {
        for (JsonNode a : list(node, "status.addresses")) {
            if (type.equals(a.path("type").asText())) {
                return a.path("address").asText();
            }
        }
        return "<none>";
    }
}
