package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.print.HumanDuration;
import io.kplane.kubectl.print.TabWriter;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kubectl's describe layout for jobs, pods, cronjobs and nodes: tab-aligned {@code Key:  value}
 * sections (Go tabwriter, padding 2), multi-line labels, the pod template, and the Events table.
 */
final class Describer {
    private static final DateTimeFormatter RFC1123Z =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH);
    private static final String L1 = "  ";
    private static final String L2 = "    ";
    private static final String L3 = "      ";

    private final TabWriter w = TabWriter.forDescribe();
    private final Instant now;
    private final ZoneId zone;

    Describer(Instant now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    String job(JsonNode job, List<JsonNode> events) {
        JsonNode meta = job.path("metadata");
        JsonNode spec = job.path("spec");
        JsonNode status = job.path("status");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        kv("", "Selector", selector(spec.path("selector")));
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        controlledBy(meta);
        kv("", "Parallelism", spec.path("parallelism").asText("<unset>"));
        kv("", "Completions", spec.has("completions") ? spec.path("completions").asText() : "<unset>");
        kv("", "Completion Mode", spec.path("completionMode").asText("NonIndexed"));
        kv("", "Suspend", Boolean.toString(spec.path("suspend").asBoolean(false)));
        kv("", "Backoff Limit", spec.path("backoffLimit").asText("6"));
        if (spec.has("ttlSecondsAfterFinished")) {
            kv("", "TTL Seconds After Finished", spec.path("ttlSecondsAfterFinished").asText());
        }
        Instant start = time(status.path("startTime"));
        Instant completed = time(status.path("completionTime"));
        if (start != null) {
            kv("", "Start Time", date(start));
        }
        if (completed != null) {
            kv("", "Completed At", date(completed));
        }
        if (start != null && completed != null) {
            kv("", "Duration", HumanDuration.format(Duration.between(start, completed)));
        }
        if (spec.has("activeDeadlineSeconds")) {
            kv("", "Active Deadline Seconds", spec.path("activeDeadlineSeconds").asText() + "s");
        }
        kv("", "Pods Statuses", status.path("active").asLong() + " Active (" + status.path("ready").asLong()
                + " Ready) / " + status.path("succeeded").asLong() + " Succeeded / " + status.path("failed").asLong()
                + " Failed");
        if ("Indexed".equals(spec.path("completionMode").asText())) {
            kv("", "Completed Indexes", status.path("completedIndexes").asText("<none>"));
        }
        podTemplate(spec.path("template"));
        events(events);
        return w.flush();
    }

    String cronJob(JsonNode cronJob, List<JsonNode> events) {
        JsonNode meta = cronJob.path("metadata");
        JsonNode spec = cronJob.path("spec");
        JsonNode jobSpec = spec.path("jobTemplate").path("spec");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        kv("", "Schedule", spec.path("schedule").asText());
        if (spec.has("timeZone")) {
            kv("", "Time Zone", spec.path("timeZone").asText());
        }
        kv("", "Concurrency Policy", spec.path("concurrencyPolicy").asText("Allow"));
        kv("", "Suspend", spec.path("suspend").asBoolean(false) ? "True" : "False");
        kv("", "Successful Job History Limit", spec.path("successfulJobsHistoryLimit").asText("<unset>"));
        kv("", "Failed Job History Limit", spec.path("failedJobsHistoryLimit").asText("<unset>"));
        kv("", "Starting Deadline Seconds", spec.has("startingDeadlineSeconds")
                ? spec.path("startingDeadlineSeconds").asText() + "s" : "<unset>");
        kv("", "Selector", jobSpec.has("selector") ? selector(jobSpec.path("selector")) : "<unset>");
        kv("", "Parallelism", jobSpec.path("parallelism").asText("<unset>"));
        kv("", "Completions", jobSpec.path("completions").asText("<unset>"));
        if (jobSpec.has("activeDeadlineSeconds")) {
            kv("", "Active Deadline Seconds", jobSpec.path("activeDeadlineSeconds").asText() + "s");
        }
        podTemplate(jobSpec.path("template"));
        JsonNode status = cronJob.path("status");
        Instant last = time(status.path("lastScheduleTime"));
        kv("", "Last Schedule Time", last == null ? "<unset>" : date(last));
        List<String> active = new ArrayList<>();
        status.path("active").forEach(a -> active.add(a.path("name").asText()));
        kv("", "Active Jobs", active.isEmpty() ? "<none>" : String.join(", ", active));
        events(events);
        return w.flush();
    }

    String pod(JsonNode pod, List<JsonNode> events) {
        JsonNode meta = pod.path("metadata");
        JsonNode spec = pod.path("spec");
        JsonNode status = pod.path("status");
        kv("", "Name", meta.path("name").asText());
        kv("", "Namespace", meta.path("namespace").asText());
        kv("", "Priority", spec.path("priority").asText("0"));
        kv("", "Service Account", spec.path("serviceAccountName").asText("default"));
        String node = spec.path("nodeName").asText("");
        String hostIp = status.path("hostIP").asText("");
        kv("", "Node", node.isEmpty() ? "<none>" : hostIp.isEmpty() ? node : node + "/" + hostIp);
        Instant start = time(status.path("startTime"));
        if (start != null) {
            kv("", "Start Time", date(start));
        }
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        if (meta.has("deletionTimestamp")) {
            kv("", "Status", "Terminating (lasts " + HumanDuration.since(time(meta.path("deletionTimestamp")), now) + ")");
            kv("", "Termination Grace Period", meta.path("deletionGracePeriodSeconds").asText("30") + "s");
        } else {
            kv("", "Status", status.path("phase").asText("Pending"));
        }
        if (status.has("reason")) {
            kv("", "Reason", status.path("reason").asText());
        }
        if (status.has("message")) {
            kv("", "Message", status.path("message").asText());
        }
        kv("", "IP", status.path("podIP").asText(""));
        if (status.path("podIPs").isArray() && !status.path("podIPs").isEmpty()) {
            w.write("IPs:\n");
            status.path("podIPs").forEach(ip -> kv(L1, "IP", ip.path("ip").asText()));
        } else {
            kv("", "IPs", "<none>");
        }
        controlledBy(meta);
        if (spec.path("initContainers").isArray() && !spec.path("initContainers").isEmpty()) {
            containers("Init Containers", spec.path("initContainers"), status.path("initContainerStatuses"), "");
        }
        containers("Containers", spec.path("containers"), status.path("containerStatuses"), "");
        if (status.path("conditions").isArray() && !status.path("conditions").isEmpty()) {
            w.write("Conditions:\n");
            w.write(L1 + "Type\tStatus\n");
            for (JsonNode c : status.path("conditions")) {
                w.write(L1 + c.path("type").asText() + " \t" + c.path("status").asText() + " \n");
            }
        }
        kv("", "Volumes", spec.path("volumes").isEmpty() ? "<none>" : names(spec.path("volumes")));
        kv("", "QoS Class", status.path("qosClass").asText("BestEffort"));
        kv("", "Node-Selectors", spec.path("nodeSelector").isEmpty() ? "<none>" : mapLine(spec.path("nodeSelector")));
        kv("", "Tolerations", spec.path("tolerations").isEmpty() ? "<none>" : names(spec.path("tolerations")));
        events(events);
        return w.flush();
    }

    String node(JsonNode node, List<JsonNode> events) {
        JsonNode meta = node.path("metadata");
        JsonNode status = node.path("status");
        kv("", "Name", meta.path("name").asText());
        List<String> roles = new ArrayList<>();
        meta.path("labels").fieldNames().forEachRemaining(l -> {
            if (l.startsWith("node-role.kubernetes.io/")) {
                roles.add(l.substring("node-role.kubernetes.io/".length()));
            }
        });
        kv("", "Roles", roles.isEmpty() ? "<none>" : String.join(",", roles));
        labels("", "Labels", meta.path("labels"));
        labels("", "Annotations", meta.path("annotations"));
        kv("", "CreationTimestamp", date(time(meta.path("creationTimestamp"))));
        kv("", "Taints", node.path("spec").path("taints").isEmpty() ? "<none>" : names(node.path("spec").path("taints")));
        kv("", "Unschedulable", Boolean.toString(node.path("spec").path("unschedulable").asBoolean(false)));
        w.write("Conditions:\n");
        w.write(L1 + "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(L1 + "----\t------\t-----------------\t------------------\t------\t-------\n");
        for (JsonNode c : status.path("conditions")) {
            w.write(L1 + c.path("type").asText() + " \t" + c.path("status").asText() + " \t"
                    + date(time(c.path("lastHeartbeatTime"))) + " \t" + date(time(c.path("lastTransitionTime"))) + " \t"
                    + c.path("reason").asText() + " \t" + c.path("message").asText() + "\n");
        }
        w.write("Addresses:\n");
        for (JsonNode a : status.path("addresses")) {
            kv(L1, a.path("type").asText(), a.path("address").asText());
        }
        JsonNode info = status.path("nodeInfo");
        w.write("System Info:\n");
        kv(L1, "Kernel Version", info.path("kernelVersion").asText());
        kv(L1, "OS Image", info.path("osImage").asText());
        kv(L1, "Operating System", info.path("operatingSystem").asText());
        kv(L1, "Architecture", info.path("architecture").asText());
        kv(L1, "Container Runtime Version", info.path("containerRuntimeVersion").asText());
        kv(L1, "Kubelet Version", info.path("kubeletVersion").asText());
        events(events);
        return w.flush();
    }

    private void podTemplate(JsonNode template) {
        w.write("Pod Template:\n");
        labels(L1, "Labels", template.path("metadata").path("labels"));
        if (template.path("metadata").has("annotations")) {
            labels(L1, "Annotations", template.path("metadata").path("annotations"));
        }
        JsonNode spec = template.path("spec");
        if (spec.path("initContainers").isArray() && !spec.path("initContainers").isEmpty()) {
            containers(L1 + "Init Containers", spec.path("initContainers"), null, " ");
        }
        containers(L1 + "Containers", spec.path("containers"), null, " ");
        kv(L1, "Volumes", spec.path("volumes").isEmpty() ? "<none>" : names(spec.path("volumes")));
        kv(L1, "Node-Selectors", spec.path("nodeSelector").isEmpty() ? "<none>" : mapLine(spec.path("nodeSelector")));
        kv(L1, "Tolerations", spec.path("tolerations").isEmpty() ? "<none>" : names(spec.path("tolerations")));
    }

    /** The Containers section; {@code statuses} is null inside a pod template. */
    private void containers(String title, JsonNode containers, JsonNode statuses, String space) {
        w.write(title + ":\n");
        String level1 = title.startsWith(L1) ? L1 : "";
        String level2 = level1 + L1;
        for (JsonNode c : containers) {
            String name = c.path("name").asText();
            w.write(level1 + space + L1.substring(space.isEmpty() ? 0 : 1) + name + ":\n");
            JsonNode st = findByName(statuses, name);
            if (st != null) {
                kv(level2, "Container ID", st.path("containerID").asText(""));
            }
            kv(level2, "Image", c.path("image").asText());
            if (st != null) {
                kv(level2, "Image ID", st.path("imageID").asText(""));
            }
            List<String> ports = new ArrayList<>();
            c.path("ports").forEach(p -> ports.add(p.path("containerPort").asText() + "/" + p.path("protocol").asText("TCP")));
            kv(level2, "Port", ports.isEmpty() ? "<none>" : String.join(", ", ports));
            kv(level2, "Host Port", "<none>");
            list(level2, "Command", c.path("command"));
            list(level2, "Args", c.path("args"));
            if (st != null) {
                state(level2, "State", st.path("state"));
                if (st.path("lastState").isObject() && !st.path("lastState").isEmpty()) {
                    state(level2, "Last State", st.path("lastState"));
                }
                kv(level2, "Ready", st.path("ready").asBoolean(false) ? "True" : "False");
                kv(level2, "Restart Count", st.path("restartCount").asText("0"));
            }
            if (c.path("env").isArray() && !c.path("env").isEmpty()) {
                w.write(level2 + "Environment:\n");
                for (JsonNode e : c.path("env")) {
                    String value = e.has("value") ? e.path("value").asText()
                            : e.has("valueFrom") ? "(" + e.path("valueFrom").fieldNames().next() + ")" : "";
                    w.write(level2 + L1 + e.path("name").asText() + ":\t" + value + "\n");
                }
            } else {
                kv(level2, "Environment", "<none>");
            }
            kv(level2, "Mounts", c.path("volumeMounts").isEmpty() ? "<none>"
                    : joinField(c.path("volumeMounts"), "mountPath"));
        }
    }

    private void state(String indent, String title, JsonNode state) {
        if (state.has("running")) {
            kv(indent, title, "Running");
            kv(indent + L1, "Started", date(time(state.path("running").path("startedAt"))));
        } else if (state.has("terminated")) {
            JsonNode t = state.path("terminated");
            kv(indent, title, "Terminated");
            if (t.has("reason")) {
                kv(indent + L1, "Reason", t.path("reason").asText());
            }
            if (t.has("message")) {
                kv(indent + L1, "Message", t.path("message").asText());
            }
            kv(indent + L1, "Exit Code", t.path("exitCode").asText("0"));
            if (t.has("signal")) {
                kv(indent + L1, "Signal", t.path("signal").asText());
            }
            kv(indent + L1, "Started", date(time(t.path("startedAt"))));
            kv(indent + L1, "Finished", date(time(t.path("finishedAt"))));
        } else if (state.has("waiting")) {
            kv(indent, title, "Waiting");
            if (state.path("waiting").has("reason")) {
                kv(indent + L1, "Reason", state.path("waiting").path("reason").asText());
            }
        } else {
            kv(indent, title, "Waiting");
        }
    }

    private void events(List<JsonNode> events) {
        if (events == null) {
            return;
        }
        if (events.isEmpty()) {
            w.write("Events:\t<none>\n");
            return;
        }
        List<JsonNode> sorted = new ArrayList<>(events);
        sorted.sort((a, b) -> {
            Instant ta = lastSeen(a);
            Instant tb = lastSeen(b);
            return ta == null || tb == null ? 0 : ta.compareTo(tb);
        });
        w.write("Events:\n");
        w.write(L1 + "Type\tReason\tAge\tFrom\tMessage\n");
        w.write(L1 + "----\t------\t----\t----\t-------\n");
        for (JsonNode e : sorted) {
            long count = e.path("count").asLong(1);
            Instant first = time(e.path("firstTimestamp"));
            if (first == null) {
                first = time(e.path("eventTime"));
            }
            String age = HumanDuration.since(lastSeen(e), now);
            if (count > 1) {
                age = age + " (x" + count + " over " + HumanDuration.since(first, now) + ")";
            }
            String from = e.path("source").path("component").asText(e.path("reportingComponent").asText(""));
            w.write(L1 + e.path("type").asText() + "\t" + e.path("reason").asText() + "\t" + age + "\t" + from + "\t"
                    + e.path("message").asText().strip() + "\n");
        }
    }

    private static Instant lastSeen(JsonNode e) {
        Instant t = time(e.path("lastTimestamp"));
        if (t == null) {
            t = time(e.path("firstTimestamp"));
        }
        return t == null ? time(e.path("eventTime")) : t;
    }

    private void controlledBy(JsonNode meta) {
        for (JsonNode ref : meta.path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                kv("", "Controlled By", ref.path("kind").asText() + "/" + ref.path("name").asText());
            }
        }
    }

    private void kv(String indent, String key, String value) {
        w.write(indent + key + ":\t" + value + "\n");
    }

    private void list(String indent, String title, JsonNode values) {
        if (!values.isArray() || values.isEmpty()) {
            return;
        }
        w.write(indent + title + ":\n");
        for (JsonNode v : values) {
            for (String line : v.asText().split("\n")) {
                w.write(indent + L1 + line + "\n");
            }
        }
    }

    /** kubectl's printLabelsMultiline: sorted {@code k=v}, one per line, aligned under the first. */
    private void labels(String indent, String title, JsonNode map) {
        List<String> entries = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = map.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            entries.add(e.getKey() + "=" + e.getValue().asText());
        }
        entries.sort(String::compareTo);
        if (title.equals("Annotations")) {
            entries.removeIf(e -> e.startsWith("kubectl.kubernetes.io/last-applied-configuration="));
            List<String> annotations = new ArrayList<>();
            for (String e : entries) {
                int eq = e.indexOf('=');
                annotations.add(e.substring(0, eq) + ": " + e.substring(eq + 1));
            }
            entries = annotations;
        }
        if (entries.isEmpty()) {
            kv(indent, title, "<none>");
            return;
        }
        kv(indent, title, entries.get(0));
        for (String e : entries.subList(1, entries.size())) {
            w.write(indent + "\t" + e + "\n");
        }
    }

    private static String selector(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            parts.add(expr.path("key").asText() + " " + expr.path("operator").asText().toLowerCase(Locale.ROOT)
                    + " (" + String.join(",", values) + ")");
        }
        parts.sort(String::compareTo);
        return parts.isEmpty() ? "<none>" : String.join(",", parts);
    }

    private static String mapLine(JsonNode map) {
        List<String> parts = new ArrayList<>();
        map.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(",", parts);
    }

    private static String names(JsonNode list) {
        List<String> parts = new ArrayList<>();
        list.forEach(e -> parts.add(e.path("name").asText(e.path("key").asText(e.toString()))));
        return String.join(", ", parts);
    }

    private static String joinField(JsonNode list, String field) {
        List<String> parts = new ArrayList<>();
        list.forEach(e -> parts.add(e.path(field).asText()));
        return String.join(", ", parts);
    }

    private static JsonNode findByName(JsonNode statuses, String name) {
        if (statuses == null || !statuses.isArray()) {
            return null;
        }
        for (JsonNode s : statuses) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        return null;
    }

    static Instant time(JsonNode n) {
        return n == null || !n.isTextual() ? null : HumanDuration.parse(n.asText());
    }

    private String date(Instant t) {
        return t == null ? "<unset>" : RFC1123Z.format(t.atZone(zone));
    }
}
