package io.kplane.junit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;

/**
 * What a developer needs when a test against the cluster fails: the namespace's events (Jobs', pods',
 * CronJobs'...), every container's log, and the last sync decisions the controllers and the kubelet
 * recorded for each Job, CronJob and pod (their lens, {@code GET /lens/objects/NS/NAME} on each
 * component's port, docs/lens.md). Each part that cannot be fetched says so instead of failing.
 */
final class FailureReport {
    private final KplaneCluster cluster;
    private final KubeHttp http;

    FailureReport(KplaneCluster cluster) {
        this.cluster = cluster;
        this.http = cluster.http();
    }

    String render(String namespace) {
        StringBuilder out = new StringBuilder();
        out.append("==== kplane: namespace ").append(namespace).append(" at the failure ====\n");
        try {
            events(namespace, out);
            logs(namespace, out);
            syncRecords(namespace, "jobs", "/apis/batch/v1", "job-controller", out);
            syncRecords(namespace, "cronjobs", "/apis/batch/v1", "cronjob-controller", out);
            syncRecords(namespace, "pods", "/api/v1", "kubelet-sim-1", out);
        } catch (RuntimeException e) {
            out.append("(report incomplete: ").append(e.getMessage()).append(")\n");
        }
        out.append("==== end of kplane report (component logs: ")
                .append(cluster.stateDir().resolve("logs"))
                .append(") ====\n");
        return out.toString();
    }

    private void events(String namespace, StringBuilder out) {
        out.append("-- events\n");
        JsonNode list = http.get("/api/v1/namespaces/" + namespace + "/events");
        List<JsonNode> events = new ArrayList<>();
        if (list != null) {
            list.path("items").forEach(events::add);
        }
        events.sort(Comparator.comparing(
                e -> e.path("metadata").path("creationTimestamp").asText()));
        if (events.isEmpty()) {
            out.append("   (none)\n");
        }
        for (JsonNode e : events) {
            JsonNode obj = e.path("involvedObject");
            out.append(String.format(
                    "   %-8s %-24s %s/%s: %s%n",
                    e.path("type").asText(),
                    e.path("reason").asText(),
                    obj.path("kind").asText(),
                    obj.path("name").asText(),
                    e.path("message").asText()));
        }
    }

    private void logs(String namespace, StringBuilder out) {
        JsonNode pods = http.get("/api/v1/namespaces/" + namespace + "/pods");
        if (pods == null) {
            return;
        }
        for (JsonNode pod : pods.path("items")) {
            String name = pod.path("metadata").path("name").asText();
            for (JsonNode container : pod.path("spec").path("containers")) {
                String c = container.path("name").asText();
                out.append("-- log of pod ")
                        .append(name)
                        .append(" container ")
                        .append(c)
                        .append(" (phase ")
                        .append(pod.path("status").path("phase").asText("?"))
                        .append(")\n");
                String log = http.text("/api/v1/namespaces/" + namespace + "/pods/" + name + "/log?container=" + c);
                out.append(log.isEmpty() ? "   (empty)\n" : indent(log));
            }
        }
    }

    private void syncRecords(
            String namespace, String resource, String groupVersion, String component, StringBuilder out) {
        JsonNode list = http.get(groupVersion + "/namespaces/" + namespace + "/" + resource);
        if (list == null || list.path("items").isEmpty()) {
            return;
        }
        OptionalInt port = cluster.componentPort(component);
        for (JsonNode item : list.path("items")) {
            String name = item.path("metadata").path("name").asText();
            out.append("-- ")
                    .append(component)
                    .append(" sync records of ")
                    .append(resource)
                    .append(' ')
                    .append(name)
                    .append('\n');
            JsonNode records = port.isEmpty()
                    ? null
                    : http.getAbsolute(
                            "http://127.0.0.1:" + port.getAsInt() + "/lens/objects/" + namespace + "/" + name);
            if (records == null) {
                out.append("   (not available from ").append(component).append(")\n");
                continue;
            }
            if (records.path("syncs").isEmpty()) {
                out.append("   (none)\n");
            }
            for (JsonNode r : records.path("syncs")) {
                out.append("   ").append(r.toString()).append('\n');
            }
        }
    }

    private static String indent(String text) {
        StringBuilder b = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (!line.isEmpty()) {
                b.append("   ").append(line).append('\n');
            }
        }
        return b.toString();
    }
}
